package main

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// found is what the source scan finds: spec declarations per row, consulting expressions per toggle id.
type found struct {
	specs    map[string][]specAt          // row id → declarations
	consults map[string]map[position]bool // toggle id → consulting expressions
	unknown  []string                     // constant row arguments naming no catalog row
}

type specAt struct {
	text string
	pos  position
}

// position is a file (relative to the module root, forward slashes) and a line; it sorts by file, then line.
type position struct {
	file string
	line int
}

func (p position) String() string { return p.file + ":" + strconv.Itoa(p.line) }

func less(a, b position) bool {
	if a.file != b.file {
		return a.file < b.file
	}
	return a.line < b.line
}

// declarer is a function that declares one spec: harness.Spec, or a function (a declared function, a method, a
// variable or parameter holding a function literal) that passes its own row parameter through to a declarer.
// row and text are argument positions (text -1 when the text is not passed through).
type declarer struct{ row, text int }

// scan loads the module's non-test packages with type information and finds, by meaning rather than spelling:
//   - every call of a declarer with a constant row argument (the spec declarations);
//   - every expression, outside the sabotage registry itself and outside constant declarations, whose constant
//     value is a string equal to a toggle id: a literal, a named constant (typed or not) or a constant expression,
//     wherever the mocks and the reference clients consult a toggle, whatever file or package holds it.
func scan(root string, rows, toggles map[string]bool) (*found, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes |
			packages.NeedTypesInfo | packages.NeedModule,
		Dir:   root,
		Tests: false,
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return nil, err
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("loading packages: %s", strings.Join(errs, "; "))
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].PkgPath < pkgs[j].PkgPath })
	var modPath string
	for _, p := range pkgs {
		if p.Module != nil && p.Module.Main {
			modPath = p.Module.Path
			break
		}
	}
	if modPath == "" {
		return nil, fmt.Errorf("no package of the main module under %s", root)
	}
	s := &scanner{root: root, fset: cfg.Fset, decl: map[types.Object]declarer{}}
	if s.fset == nil {
		s.fset = pkgs[0].Fset
	}

	// harness.Spec(e, row, text, body)
	for _, p := range pkgs {
		if p.PkgPath == modPath+"/harness" {
			if o, ok := p.Types.Scope().Lookup("Spec").(*types.Func); ok {
				s.decl[o] = declarer{row: 1, text: 2}
			}
		}
	}
	if len(s.decl) == 0 {
		return nil, fmt.Errorf("%s/harness.Spec not found", modPath)
	}
	// Wrappers of wrappers, closures passed as arguments: iterate to a fixed point.
	for changed := true; changed; {
		changed = false
		for _, p := range pkgs {
			for _, f := range p.Syntax {
				if s.propagate(p.TypesInfo, f) {
					changed = true
				}
			}
		}
	}

	out := &found{specs: map[string][]specAt{}, consults: map[string]map[position]bool{}}
	for _, p := range pkgs {
		// The registry declares toggles; certify (the client certification's scenarios) and cmd/refclient (the
		// reference client's adapter, --ignore-digest) switch them on, as the falsification does: none of them is
		// where a toggle is consulted.
		registry := p.PkgPath == modPath+"/sabotage" || strings.HasPrefix(p.PkgPath, modPath+"/sabotage/") ||
			p.PkgPath == modPath+"/certify" || p.PkgPath == modPath+"/cmd/refclient"
		for _, f := range p.Syntax {
			s.collectSpecs(p.TypesInfo, f, rows, out)
			if !registry {
				s.collectConsults(p.TypesInfo, f, toggles, out)
			}
		}
	}
	for id := range out.specs {
		sort.Slice(out.specs[id], func(i, j int) bool { return less(out.specs[id][i].pos, out.specs[id][j].pos) })
	}
	sort.Strings(out.unknown)
	return out, nil
}

type scanner struct {
	root string
	fset *token.FileSet
	decl map[types.Object]declarer
}

func (s *scanner) pos(p token.Pos) position {
	tp := s.fset.Position(p)
	rel, err := filepath.Rel(s.root, tp.Filename)
	if err != nil {
		rel = tp.Filename
	}
	return position{file: filepath.ToSlash(rel), line: tp.Line}
}

// callee is the object a call expression calls: a function, a method, or a variable holding a function.
func callee(info *types.Info, fun ast.Expr) types.Object {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return info.Uses[f]
	case *ast.SelectorExpr:
		return info.Uses[f.Sel]
	}
	return nil
}

// funcFrame is one enclosing function: the object that names it (nil for an anonymous literal) and its
// parameters.
type funcFrame struct {
	owner  types.Object
	params *types.Tuple
}

// propagate marks new declarers found in f; it reports whether any was added.
func (s *scanner) propagate(info *types.Info, f *ast.File) bool {
	changed := false
	add := func(o types.Object, d declarer) {
		if o == nil {
			return
		}
		if _, ok := s.decl[o]; !ok {
			s.decl[o] = d
			changed = true
		}
	}
	// Function literals bound to a name: spec := func(row, text string, …) { harness.Spec(e, row, text, …) }.
	owners := map[*ast.FuncLit]types.Object{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, r := range n.Rhs {
					if lit, ok := ast.Unparen(r).(*ast.FuncLit); ok {
						if id, ok := n.Lhs[i].(*ast.Ident); ok {
							owners[lit] = objOf(info, id)
						}
					}
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i, v := range n.Values {
					if lit, ok := ast.Unparen(v).(*ast.FuncLit); ok {
						owners[lit] = objOf(info, n.Names[i])
					}
				}
			}
		}
		return true
	})
	var stack []funcFrame
	paramIndex := func(e ast.Expr) (types.Object, int) {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil, -1
		}
		o := info.Uses[id]
		if o == nil {
			return nil, -1
		}
		for k := len(stack) - 1; k >= 0; k-- {
			ps := stack[k].params
			for i := 0; ps != nil && i < ps.Len(); i++ {
				if ps.At(i) == o {
					return stack[k].owner, i
				}
			}
		}
		return nil, -1
	}
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			o := info.Defs[n.Name]
			var ps *types.Tuple
			if fn, ok := o.(*types.Func); ok {
				ps = fn.Type().(*types.Signature).Params()
			}
			if n.Body != nil {
				stack = append(stack, funcFrame{owner: o, params: ps})
				ast.Inspect(n.Body, walk)
				stack = stack[:len(stack)-1]
			}
			return false
		case *ast.FuncLit:
			var ps *types.Tuple
			if sig, ok := info.TypeOf(n).(*types.Signature); ok {
				ps = sig.Params()
			}
			stack = append(stack, funcFrame{owner: owners[n], params: ps})
			ast.Inspect(n.Body, walk)
			stack = stack[:len(stack)-1]
			return false
		case *ast.CallExpr:
			c := callee(info, n.Fun)
			if d, ok := s.decl[c]; ok && d.row < len(n.Args) {
				// A function passing its row parameter to a declarer is a declarer.
				if owner, ri := paramIndex(n.Args[d.row]); owner != nil && ri >= 0 {
					ti := -1
					if d.text >= 0 && d.text < len(n.Args) {
						if o2, i2 := paramIndex(n.Args[d.text]); o2 == owner {
							ti = i2
						}
					}
					add(owner, declarer{row: ri, text: ti})
				}
			}
			// A declarer passed as an argument makes the callee's parameter a declarer.
			if c != nil {
				if sig, ok := c.Type().Underlying().(*types.Signature); ok {
					for j, a := range n.Args {
						if j >= sig.Params().Len() {
							break
						}
						if d, ok := s.decl[callee(info, a)]; ok {
							add(sig.Params().At(j), d)
						}
					}
				}
			}
		}
		return true
	}
	ast.Inspect(f, walk)
	return changed
}

func objOf(info *types.Info, id *ast.Ident) types.Object {
	if o := info.Defs[id]; o != nil {
		return o
	}
	return info.Uses[id]
}

func stringConst(info *types.Info, e ast.Expr) (string, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

func (s *scanner) collectSpecs(info *types.Info, f *ast.File, rows map[string]bool, out *found) {
	tables := rangeTables(info, f)
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		d, ok := s.decl[callee(info, call.Fun)]
		if !ok || d.row >= len(call.Args) {
			return true
		}
		var textArg ast.Expr
		if d.text >= 0 && d.text < len(call.Args) {
			textArg = call.Args[d.text]
		}
		p := s.pos(call.Pos())
		record := func(row string, bind binding) {
			if !rows[row] {
				out.unknown = append(out.unknown, fmt.Sprintf("%s: spec for %q, not a catalog row", p, row))
				return
			}
			text := "(computed text)"
			if textArg != nil {
				if t, ok := evalString(info, textArg, bind); ok {
					text = t
				}
			}
			out.specs[row] = append(out.specs[row], specAt{text: text, pos: p})
		}
		if row, ok := stringConst(info, call.Args[d.row]); ok {
			record(row, nil)
			return true
		}
		// A table-driven spec: for _, c := range []struct{ row, … string }{{"ROW", …}, …} { spec(e, c.row, …) }.
		for _, bind := range tables.bindings(info, call.Args[d.row]) {
			if row, ok := evalString(info, call.Args[d.row], bind); ok {
				record(row, bind)
			}
		}
		return true // otherwise a wrapper's own pass-through call
	})
}

// binding is one element of a ranged-over composite literal: the range variable's object and the element.
type binding map[types.Object]ast.Expr

// tables maps each range value variable ranging over a composite literal (and each variable copied from one,
// as in c := c) to the literal's elements.
type tables map[types.Object][]ast.Expr

func rangeTables(info *types.Info, f *ast.File) tables {
	t := tables{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.RangeStmt:
			lit, ok := ast.Unparen(n.X).(*ast.CompositeLit)
			if id, isID := n.Value.(*ast.Ident); ok && isID {
				if o := objOf(info, id); o != nil {
					t[o] = lit.Elts
				}
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, r := range n.Rhs {
					l, ok1 := n.Lhs[i].(*ast.Ident)
					ri, ok2 := r.(*ast.Ident)
					if ok1 && ok2 {
						if src, ok := t[info.Uses[ri]]; ok {
							if o := objOf(info, l); o != nil {
								t[o] = src
							}
						}
					}
				}
			}
		}
		return true
	})
	return t
}

// bindings returns one binding per table element when e reads a table variable (v or v.field), else none.
func (t tables) bindings(info *types.Info, e ast.Expr) []binding {
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id, _ = ast.Unparen(x.X).(*ast.Ident)
	}
	if id == nil {
		return nil
	}
	o := info.Uses[id]
	elts, ok := t[o]
	if !ok {
		return nil
	}
	out := make([]binding, 0, len(elts))
	for _, el := range elts {
		out = append(out, binding{o: el})
	}
	return out
}

// evalString evaluates a string expression made of constants, + and reads of a bound table element (the
// element itself, or one of its struct fields, keyed or positional).
func evalString(info *types.Info, e ast.Expr, bind binding) (string, bool) {
	if v, ok := stringConst(info, e); ok {
		return v, true
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return "", false
		}
		a, ok1 := evalString(info, x.X, bind)
		b, ok2 := evalString(info, x.Y, bind)
		return a + b, ok1 && ok2
	case *ast.Ident:
		if el, ok := bind[info.Uses[x]]; ok {
			return stringConst(info, el)
		}
	case *ast.SelectorExpr:
		id, ok := ast.Unparen(x.X).(*ast.Ident)
		if !ok {
			return "", false
		}
		el, ok := bind[info.Uses[id]]
		if !ok {
			return "", false
		}
		lit, ok := ast.Unparen(el).(*ast.CompositeLit)
		if !ok {
			return "", false
		}
		st, ok := info.TypeOf(lit).Underlying().(*types.Struct)
		if !ok {
			return "", false
		}
		for i, v := range lit.Elts {
			if kv, ok := v.(*ast.KeyValueExpr); ok {
				if k, ok := kv.Key.(*ast.Ident); ok && k.Name == x.Sel.Name {
					return stringConst(info, kv.Value)
				}
				continue
			}
			if i < st.NumFields() && st.Field(i).Name() == x.Sel.Name {
				return stringConst(info, v)
			}
		}
	}
	return "", false
}

func (s *scanner) collectConsults(info *types.Info, f *ast.File, toggles map[string]bool, out *found) {
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			// A constant's declaration names the id; its uses are the consultations.
			return n.Tok != token.CONST
		case ast.Expr:
			if v, ok := stringConst(info, n); ok && toggles[v] {
				if out.consults[v] == nil {
					out.consults[v] = map[position]bool{}
				}
				out.consults[v][s.pos(n.Pos())] = true
				return false
			}
		}
		return true
	})
}
