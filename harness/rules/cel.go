package rules

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/ext"
)

// The CEL bounds. The environment has the standard library and the strings extension only: no function reaches
// the network, the filesystem, the clock or the process.
const (
	CostLimit   = 200_000     // CEL runtime cost units per evaluation (the examples need a few hundred)
	EvalTimeout = time.Second // wall time per evaluation (interrupt checks every 100 comprehension steps)
)

var (
	envOnce sync.Once
	celEnv  *cel.Env
	envErr  error
)

// env is the one CEL environment rules are compiled in: card, document, request and response as dynamic JSON.
func env() (*cel.Env, error) {
	envOnce.Do(func() {
		celEnv, envErr = cel.NewEnv(
			cel.Variable("card", cel.DynType),
			cel.Variable("document", cel.DynType),
			cel.Variable("request", cel.DynType),
			cel.Variable("response", cel.DynType),
			ext.Strings(),
			cel.ParserRecursionLimit(64),
			cel.ParserExpressionSizeLimit(MaxExprBytes),
		)
	})
	return celEnv, envErr
}

// compile checks and plans one expression: a check or a when must be boolean (or dynamic), an observe a string
// (or dynamic).
func compile(src string, observe bool) (cel.Program, error) {
	if src == "" {
		return nil, errors.New("an expression is required")
	}
	if len(src) > MaxExprBytes {
		return nil, fmt.Errorf("expression longer than %d bytes", MaxExprBytes)
	}
	e, err := env()
	if err != nil {
		return nil, err
	}
	ast, iss := e.Compile(src)
	if iss != nil && iss.Err() != nil {
		return nil, iss.Err()
	}
	want := cel.BoolType
	if observe {
		want = cel.StringType
	}
	if out := ast.OutputType(); !out.IsExactType(want) && !out.IsExactType(cel.DynType) {
		return nil, fmt.Errorf("the expression gives %s, want %s", out, want)
	}
	return e.Program(ast,
		cel.CostLimit(CostLimit),
		cel.InterruptCheckFrequency(100),
		cel.EvalOptions(cel.OptOptimize),
	)
}

// eval runs a compiled program on the rule's variables under the evaluation timeout.
func eval(ctx context.Context, prg cel.Program, vars map[string]any) (any, error) {
	ctx, cancel := context.WithTimeout(ctx, EvalTimeout)
	defer cancel()
	out, _, err := prg.ContextEval(ctx, vars)
	if err != nil {
		return nil, err
	}
	if types.IsError(out) {
		return nil, fmt.Errorf("%v", out)
	}
	return out.Value(), nil
}

// evalBool evaluates a check or a when.
func evalBool(ctx context.Context, src string, vars map[string]any) (bool, error) {
	prg, err := compile(src, false)
	if err != nil {
		return false, err
	}
	v, err := eval(ctx, prg, vars)
	if err != nil {
		return false, err
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("the expression gave %T, want a boolean", v)
	}
	return b, nil
}

// evalString evaluates an observe expression; a failure is reported as the text.
func evalString(ctx context.Context, src string, vars map[string]any) string {
	prg, err := compile(src, true)
	if err != nil {
		return "observe: " + err.Error()
	}
	v, err := eval(ctx, prg, vars)
	if err != nil {
		return "observe: " + err.Error()
	}
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}
