// Command cardserver is a stand-in for an implementer's agent image in the container target's tests: it serves a
// minimal agent card over http on :8080. -exit quits at once (a container that dies), -mute never listens (a
// container that never becomes ready).
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	exit := flag.Bool("exit", false, "exit at once with status 3")
	mute := flag.Bool("mute", false, "never listen")
	flag.Parse()
	go func() { // PID 1 in a container gets no default SIGTERM handler
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
		<-sig
		os.Exit(0)
	}()
	if *exit {
		fmt.Println("cardserver: exiting on purpose")
		os.Exit(3)
	}
	if *mute {
		fmt.Println("cardserver: not listening")
		select {}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/agent-card.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"name":"cardserver","description":"test stand-in","version":"1.0.0","supportedInterfaces":[{"url":"http://%s/jsonrpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}`, r.Host)
	})
	fmt.Println("cardserver: listening on :8080")
	srv := &http.Server{Addr: ":8080", Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	if err := srv.ListenAndServe(); err != nil {
		fmt.Println("cardserver:", err)
		os.Exit(1)
	}
}
