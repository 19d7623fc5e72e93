package harness

import (
	"reflect"
	"unsafe"
)

// Ginkgo's RunSpecs starts an interrupt handler (a goroutine listening for SIGINT/SIGTERM) per run and never stops
// it: one goroutine and one signal registration leak per harness.Run. The handler is reachable only through the
// spec context Ginkgo hands to a node (specContext.suite.interruptHandler); stopper finds it there by field name,
// and Run stops it once RunSpecs has returned. If a Ginkgo release renames the fields, stopper finds nothing and
// the run leaks as before (TestRunsLeaveNothing says so); it never panics.
func stopper(sc any) (stop func()) {
	defer func() {
		if recover() != nil {
			stop = nil
		}
	}()
	v := reflect.ValueOf(sc)
	for v.IsValid() && (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && !v.IsNil() {
		v = v.Elem()
	}
	suite := field(v, "suite")
	if !suite.IsValid() || suite.Kind() != reflect.Pointer || suite.IsNil() {
		return nil
	}
	h := field(suite.Elem(), "interruptHandler")
	if !h.IsValid() || h.Kind() != reflect.Interface || h.IsNil() {
		return nil
	}
	m := h.Elem().MethodByName("Stop")
	if !m.IsValid() || m.Type().NumIn() != 0 {
		return nil
	}
	return func() { m.Call(nil) }
}

// field returns the named (possibly unexported) field of struct v, usable as if exported.
func field(v reflect.Value, name string) reflect.Value {
	if !v.IsValid() || v.Kind() != reflect.Struct || !v.CanAddr() {
		return reflect.Value{}
	}
	f := v.FieldByName(name)
	if !f.IsValid() {
		return f
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}
