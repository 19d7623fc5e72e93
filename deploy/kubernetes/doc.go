// Package kubernetes holds no code: its directory holds the Kubernetes manifests that run the harness image as
// an Indexed Job over a registry's list of agents (job.yaml), then the index step (index-job.yaml), and the
// test that decodes them strictly into the Kubernetes API types and checks their wiring.
package kubernetes
