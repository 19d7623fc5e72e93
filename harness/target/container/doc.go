// Package container is the container target: an image or a Dockerfile started with testcontainers-go, waited on
// with its card URL, its announced configuration merged under the operator's, and torn down after the run. Only
// cmd and this package's own tests link it, so the engine and the suites never depend on a container engine.
package container
