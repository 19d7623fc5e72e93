// Package ci holds no code: its directory holds copy-paste CI recipes (GitHub Actions, GitLab CI) and the test
// that runs them, and the repository's GitHub Action (action.yml), against the reference agents, so that the
// recipes cannot rot.
package ci
