// Command runsuite is the extconf CLI: flags in, harness API calls out, nothing else.
package main
