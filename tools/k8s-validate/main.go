// k8s-validate checks the manifests `helm template` renders against the
// Kubernetes API types, strictly: each document is decoded by its
// apiVersion and kind into the typed struct (k8s.io/api) with unknown
// fields, duplicate fields and wrong types refused. ServiceMonitor and
// PrometheusRule (prometheus-operator CRDs) are checked against the small
// structs in crds.go, as strictly, each alert's expression with
// Prometheus' own PromQL parser. Then a few rules of banca's chart:
// selectors match the pod labels, every container has its three probes,
// runs as non-root with a read-only root file system.
//
//	helm template ... | k8s-validate               # exit 1 naming object and field
//	helm template ... | k8s-validate -containers   # also print each container as JSON
//
// -containers prints one JSON object a line per Secret (its items, for the
// smoke test to mount) and per StatefulSet container:
// the workload's name, component, replicas, the container's args, env
// (value or the Secret or field it comes from), volume mounts and the
// volumes' Secrets; tools/chart-smoke runs them.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/yaml"
)

// The kinds the chart may render, by "apiVersion/kind".
func newObject(apiVersion, kind string) (any, bool) {
	switch apiVersion + "/" + kind {
	case "apps/v1/StatefulSet":
		return &appsv1.StatefulSet{}, true
	case "apps/v1/Deployment":
		return &appsv1.Deployment{}, true
	case "v1/Service":
		return &corev1.Service{}, true
	case "v1/Secret":
		return &corev1.Secret{}, true
	case "v1/ConfigMap":
		return &corev1.ConfigMap{}, true
	case "policy/v1/PodDisruptionBudget":
		return &policyv1.PodDisruptionBudget{}, true
	case "networking.k8s.io/v1/NetworkPolicy":
		return &networkingv1.NetworkPolicy{}, true
	case "monitoring.coreos.com/v1/ServiceMonitor":
		return &ServiceMonitor{}, true
	case "monitoring.coreos.com/v1/PrometheusRule":
		return &PrometheusRule{}, true
	}
	return nil, false
}

type header struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
}

// The documents of a multi-document YAML stream, with the source file
// `helm template` names in its "# Source:" comment.
type document struct {
	source string
	text   []byte
}

func splitDocuments(r io.Reader) ([]document, error) {
	var docs []document
	var cur bytes.Buffer
	source := ""
	flush := func() {
		if strings.TrimSpace(cur.String()) != "" {
			docs = append(docs, document{source: source, text: append([]byte(nil), cur.Bytes()...)})
		}
		cur.Reset()
		source = ""
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "---" || strings.HasPrefix(line, "--- ") {
			flush()
			continue
		}
		if s, ok := strings.CutPrefix(line, "# Source: "); ok {
			source = s
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
	}
	flush()
	return docs, sc.Err()
}

func main() {
	containers := flag.Bool("containers", false, "print each StatefulSet container's command line as JSON")
	flag.Parse()
	docs, err := splitDocuments(os.Stdin)
	if err != nil {
		fmt.Fprintf(os.Stderr, "k8s-validate: reading: %v\n", err)
		os.Exit(2)
	}
	problems := 0
	objects := 0
	var out []map[string]any
	for _, d := range docs {
		var h header
		if err := yaml.Unmarshal(d.text, &h); err != nil {
			fmt.Fprintf(os.Stderr, "k8s-validate: %s: not YAML: %v\n", d.source, err)
			problems++
			continue
		}
		if h.Kind == "" && h.APIVersion == "" {
			continue // only comments
		}
		name := fmt.Sprintf("%s %s (%s)", h.Kind, h.Metadata.Name, d.source)
		obj, ok := newObject(h.APIVersion, h.Kind)
		if !ok {
			fmt.Fprintf(os.Stderr, "k8s-validate: %s: apiVersion %q kind %q is not one this chart may render\n", name, h.APIVersion, h.Kind)
			problems++
			continue
		}
		objects++
		if err := yaml.UnmarshalStrict(d.text, obj); err != nil {
			fmt.Fprintf(os.Stderr, "k8s-validate: %s: %v\n", name, err)
			problems++
			continue
		}
		for _, p := range check(obj) {
			fmt.Fprintf(os.Stderr, "k8s-validate: %s: %s\n", name, p)
			problems++
		}
		if *containers {
			switch o := obj.(type) {
			case *appsv1.StatefulSet:
				out = append(out, describe(o)...)
			case *corev1.Secret:
				out = append(out, describeSecret(o))
			}
		}
	}
	if problems > 0 {
		fmt.Fprintf(os.Stderr, "k8s-validate: %d problem(s) in %d object(s)\n", problems, objects)
		os.Exit(1)
	}
	if objects == 0 {
		fmt.Fprintln(os.Stderr, "k8s-validate: no objects on stdin")
		os.Exit(1)
	}
	if *containers {
		enc := json.NewEncoder(os.Stdout)
		for _, c := range out {
			if err := enc.Encode(c); err != nil {
				os.Exit(2)
			}
		}
		return
	}
	fmt.Printf("k8s-validate: %d objects valid\n", objects)
}
