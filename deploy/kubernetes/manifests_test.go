package kubernetes

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/extconf/extconf/batch"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/suites"
)

// decodeStrict decodes one YAML document into v: YAML to JSON (yaml.v3 refuses duplicate keys), then
// encoding/json with unknown fields refused, then a round trip: every member of the document must come back
// under the same name with the same value, which refuses the case variants encoding/json would accept ("Image").
func decodeStrict(doc map[string]any, v any) error {
	raw, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	back, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var round any
	if err := json.Unmarshal(back, &round); err != nil {
		return err
	}
	var orig any
	json.Unmarshal(raw, &orig)
	return subset("$", orig, round)
}

// subset: every member of a is in b with an equal value (b may hold more: defaults, empty members).
func subset(at string, a, b any) error {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: an object did not survive decoding", at)
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok {
				return fmt.Errorf("%s.%s: not a member of the API type (misspelt or case variant)", at, k)
			}
			if err := subset(at+"."+k, v, w); err != nil {
				return err
			}
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(y) != len(x) {
			return fmt.Errorf("%s: an array did not survive decoding", at)
		}
		for i := range x {
			if err := subset(fmt.Sprintf("%s[%d]", at, i), x[i], y[i]); err != nil {
				return err
			}
		}
	default:
		if fmt.Sprint(a) != fmt.Sprint(b) {
			return fmt.Errorf("%s: %v decodes as %v", at, a, b)
		}
	}
	return nil
}

// manifests reads every document of every YAML file here, decoded strictly by kind.
type manifests struct {
	jobs   map[string]*batchv1.Job
	maps   map[string]*corev1.ConfigMap
	claims map[string]*corev1.PersistentVolumeClaim
}

func load(t *testing.T) manifests {
	t.Helper()
	m := manifests{jobs: map[string]*batchv1.Job{}, maps: map[string]*corev1.ConfigMap{}, claims: map[string]*corev1.PersistentVolumeClaim{}}
	files, _ := filepath.Glob("*.yaml")
	if len(files) == 0 {
		t.Fatal("no manifests")
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(raw))
		for n := 0; ; n++ {
			var doc map[string]any
			if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("%s document %d: %v", f, n, err)
			}
			kind, _ := doc["kind"].(string)
			api, _ := doc["apiVersion"].(string)
			var into any
			switch kind + " " + api {
			case "Job batch/v1":
				j := &batchv1.Job{}
				into = j
				defer func() { m.jobs[j.Name] = j }()
			case "ConfigMap v1":
				c := &corev1.ConfigMap{}
				into = c
				defer func() { m.maps[c.Name] = c }()
			case "PersistentVolumeClaim v1":
				c := &corev1.PersistentVolumeClaim{}
				into = c
				defer func() { m.claims[c.Name] = c }()
			default:
				t.Fatalf("%s document %d: kind %q apiVersion %q: no decoder in this test", f, n, kind, api)
			}
			if err := decodeStrict(doc, into); err != nil {
				t.Fatalf("%s document %d (%s): %v", f, n, kind, err)
			}
		}
	}
	return m
}

// The strict decoder refuses what a lenient one would take silently.
func TestDecodeStrictRefuses(t *testing.T) {
	for body, want := range map[string]string{
		"kind: Job\napiVersion: batch/v1\nspec: {completionMod: Indexed}\n":                      "unknown field",
		"kind: Job\napiVersion: batch/v1\nspec: {CompletionMode: Indexed}\n":                     "case variant",
		"kind: Job\napiVersion: batch/v1\nspec: {completions: 2, completions: 3}\n":              "already defined",
		"kind: Job\napiVersion: batch/v1\nspec: {template: {spec: {containers: [{imag: x}]}}}\n": "unknown field",
	} {
		var doc map[string]any
		err := yaml.Unmarshal([]byte(body), &doc)
		if err == nil {
			err = decodeStrict(doc, &batchv1.Job{})
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error containing %q", body, err, want)
		}
	}
}

// jobArgs are the arguments docker/harness-leg.sh gives the image for each simulated pod.
func jobArgs(t *testing.T) []string {
	raw, err := os.ReadFile("../../docker/harness-leg.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^JOB_ARGS=\((.*)\)$`).FindSubmatch(raw)
	if m == nil {
		t.Fatal("docker/harness-leg.sh: no JOB_ARGS=(...) line")
	}
	return strings.Fields(string(m[1]))
}

// flagValue is the value after flag in args.
func flagValue(args []string, flag string) string {
	if i := slices.Index(args, flag); i >= 0 && i+1 < len(args) {
		return args[i+1]
	}
	return ""
}

// The manifests decode strictly into the API types, and are wired: the certify Job is Indexed with one
// completion per shard, its pods get their completion index, run the harness image of this version with the
// arguments the Docker simulation runs, read the targets ConfigMap (whose targets file and configurations load
// as runsuite reads them), write to the bundles claim, and have memory for --parallel runs; the index Job
// indexes the same claim with the same image.
func TestKubernetesManifests(t *testing.T) {
	m := load(t)
	job, idx := m.jobs["extconf-certify"], m.jobs["extconf-index"]
	if job == nil || idx == nil {
		t.Fatalf("want Jobs extconf-certify and extconf-index, have %v", reflect.ValueOf(m.jobs).MapKeys())
	}
	s := job.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		t.Errorf("certify: completionMode %v, want Indexed", s.CompletionMode)
	}
	pod := s.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("certify: %d containers", len(pod.Containers))
	}
	c := pod.Containers[0]
	if want := jobArgs(t); !slices.Equal(c.Args, want) {
		t.Errorf("certify args\n  %q\nthe Docker simulation runs\n  %q", c.Args, want)
	}
	shards, err := strconv.Atoi(flagValue(c.Args, "--shard-of"))
	if err != nil || c.Args[0] != "batch" || !slices.Contains(c.Args, "--no-index") || !slices.Contains(c.Args, "--record-only") {
		t.Errorf("certify args %q: want batch … --shard-of N --no-index --record-only", c.Args)
	}
	if s.Completions == nil || int(*s.Completions) != shards {
		t.Errorf("certify: completions %d, want the shard count %d of --shard-of", ptrVal(s.Completions), shards)
	}
	if s.Parallelism == nil || *s.Parallelism < 1 || int(*s.Parallelism) > shards {
		t.Errorf("certify: parallelism %v", s.Parallelism)
	}
	if pod.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("certify: restartPolicy %q (podFailurePolicy needs Never)", pod.RestartPolicy)
	}
	var indexEnv bool
	for _, e := range c.Env {
		if e.Name == "JOB_COMPLETION_INDEX" && e.ValueFrom != nil && e.ValueFrom.FieldRef != nil &&
			e.ValueFrom.FieldRef.FieldPath == "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
			indexEnv = true
		}
	}
	if !indexEnv {
		t.Error("certify: JOB_COMPLETION_INDEX is not taken from the completion-index annotation")
	}
	// Memory: --parallel runs, each within the per-run budget (512 MiB), plus the batch process.
	par, _ := strconv.Atoi(flagValue(c.Args, "--parallel"))
	need := resource.MustParse(fmt.Sprintf("%dMi", par*512+256))
	if lim, ok := c.Resources.Limits[corev1.ResourceMemory]; !ok || lim.Cmp(need) < 0 {
		t.Errorf("certify: memory limit %v, want at least %v for --parallel %d", c.Resources.Limits.Memory(), &need, par)
	}
	if _, ok := c.Resources.Requests[corev1.ResourceMemory]; !ok {
		t.Error("certify: no memory request")
	}

	for name, j := range map[string]*batchv1.Job{"certify": job, "index": idx} {
		p := j.Spec.Template.Spec
		c := p.Containers[0]
		if want := "/extconf-harness:" + evidence.Version; !strings.HasSuffix(c.Image, want) {
			t.Errorf("%s: image %q, want …%s (the harness image of this version)", name, c.Image, want)
		}
		if p.SecurityContext == nil || p.SecurityContext.RunAsNonRoot == nil || !*p.SecurityContext.RunAsNonRoot ||
			p.SecurityContext.RunAsUser == nil || *p.SecurityContext.RunAsUser != 65534 {
			t.Errorf("%s: not run as the image's user 65534", name)
		}
		if _, ok := c.Resources.Limits[corev1.ResourceMemory]; !ok {
			t.Errorf("%s: no memory limit", name)
		}
		mounts := map[string]corev1.VolumeMount{}
		for _, vm := range c.VolumeMounts {
			mounts[vm.MountPath] = vm
		}
		vols := map[string]corev1.Volume{}
		for _, v := range p.Volumes {
			vols[v.Name] = v
		}
		b, ok := mounts["/bundles"]
		if v := vols[b.Name]; !ok || v.PersistentVolumeClaim == nil || m.claims[v.PersistentVolumeClaim.ClaimName] == nil {
			t.Errorf("%s: /bundles is not the bundles claim", name)
		}
		if ro := c.SecurityContext != nil && c.SecurityContext.ReadOnlyRootFilesystem != nil && *c.SecurityContext.ReadOnlyRootFilesystem; ro {
			if tmp, ok := mounts["/tmp"]; !ok || vols[tmp.Name].EmptyDir == nil {
				t.Errorf("%s: a read-only root filesystem needs an emptyDir at /tmp", name)
			}
		}
	}
	if !slices.Equal(idx.Spec.Template.Spec.Containers[0].Args, []string{"index", "/bundles"}) {
		t.Errorf("index args %q", idx.Spec.Template.Spec.Containers[0].Args)
	}
	if flagValue(c.Args, "--out") != "/bundles" {
		t.Errorf("certify: --out %q, want the bundles mount", flagValue(c.Args, "--out"))
	}

	// The targets: the file the arguments name is a key of the mounted ConfigMap, and it and the configurations
	// it names load as runsuite batch and run read them.
	var tm *corev1.VolumeMount
	for i := range c.VolumeMounts {
		if c.VolumeMounts[i].MountPath == "/targets" {
			tm = &c.VolumeMounts[i]
		}
	}
	if tm == nil || !tm.ReadOnly {
		t.Fatal("certify: /targets is not mounted read-only")
	}
	var cm *corev1.ConfigMap
	for _, v := range pod.Volumes {
		if v.Name == tm.Name && v.ConfigMap != nil {
			cm = m.maps[v.ConfigMap.Name]
		}
	}
	if cm == nil {
		t.Fatal("certify: /targets is not a ConfigMap of these manifests")
	}
	dir := t.TempDir()
	for k, v := range cm.Data {
		os.WriteFile(filepath.Join(dir, k), []byte(v), 0o600)
	}
	file := strings.TrimPrefix(c.Args[1], "/targets/")
	if _, ok := cm.Data[file]; !ok {
		t.Fatalf("certify: %s is not a key of ConfigMap %s", c.Args[1], cm.Name)
	}
	// The credentials come from the Secret the pods take their environment from.
	if len(c.EnvFrom) == 0 || c.EnvFrom[0].SecretRef == nil {
		t.Error("certify: no Secret in envFrom for the configurations' fromEnv credentials")
	}
	for _, k := range cm.Data {
		for _, v := range regexp.MustCompile(`"fromEnv":\s*"([A-Z_0-9]+)"`).FindAllStringSubmatch(k, -1) {
			t.Setenv(v[1], "set-by-the-secret")
		}
	}
	ts, err := batch.Load(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range ts {
		cfg, err := target.LoadConfig(tg.Config)
		if err == nil {
			err = harness.PrepareConfig(&cfg, suites.Documents()...)
		}
		if err != nil {
			t.Errorf("%s: %s: %v", tg.Name, filepath.Base(tg.Config), err)
		}
	}
}

func ptrVal(p *int32) int32 {
	if p == nil {
		return -1
	}
	return *p
}
