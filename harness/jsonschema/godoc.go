package jsonschema

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// DocsFromSource reads the doc comments of the struct types and their fields in the Go package in dir (import path
// pkgPath, test files left out): a field's comment above it, else the one at its line's end.
func DocsFromSource(pkgPath, dir string) (Docs, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	out := Docs{}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, sp := range gd.Specs {
				ts := sp.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				if text := commentText(doc); text != "" {
					out[pkgPath+"."+ts.Name.Name] = text
				}
				structDocs(ts.Type, pkgPath+"."+ts.Name.Name, out)
			}
		}
	}
	return out, nil
}

// commentText is a comment group's text on one line.
func commentText(g *ast.CommentGroup) string {
	if g == nil {
		return ""
	}
	return strings.Join(strings.Fields(g.Text()), " ")
}

// structDocs records the field docs of the struct type expression x under key, and those of unnamed struct types
// of its fields under key.<Field>.
func structDocs(x ast.Expr, key string, out Docs) {
	for {
		switch e := x.(type) {
		case *ast.StarExpr:
			x = e.X
			continue
		case *ast.ArrayType:
			x = e.Elt
			continue
		case *ast.MapType:
			x = e.Value
			continue
		}
		break
	}
	st, ok := x.(*ast.StructType)
	if !ok {
		return
	}
	for _, fl := range st.Fields.List {
		text := commentText(fl.Doc)
		if text == "" {
			text = commentText(fl.Comment)
		}
		for _, id := range fl.Names {
			if text != "" {
				out[key+"."+id.Name] = text
			}
			structDocs(fl.Type, key+"."+id.Name, out)
		}
	}
}
