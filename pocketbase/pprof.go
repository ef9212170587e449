package main

import (
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"net/netip"
	"os"
	"runtime"
	"time"

	"github.com/pocketbase/pocketbase/core"
)

// PB_PPROF=127.0.0.1:<port> serves Go's profiles (net/http/pprof: /debug/pprof/profile?seconds=N
// for CPU, /debug/pprof/trace?seconds=N for the execution trace, /debug/pprof/block?seconds=N and
// /debug/pprof/mutex?seconds=N for waits, /debug/pprof/heap, ...) on that loopback address, for
// measuring PocketBase under load (docs/benchmarks.md). With it set, blocking and mutex contention
// are sampled (blockProfileRate, mutexProfileFraction). Off unless set; any address other than a
// loopback IP with a port is refused at start-up, so the profiles are never reachable from another
// host.
const pprofEnv = "PB_PPROF"

// A blocking event is sampled about once per this many nanoseconds blocked, one mutex contention in
// this many: cheap enough to leave on for a whole bench run.
const (
	blockProfileRate     = 100_000
	mutexProfileFraction = 10
)

// pprofAddress checks a PB_PPROF value: a loopback IP address and a port.
func pprofAddress(value string) (string, error) {
	host, port, err := net.SplitHostPort(value)
	if err != nil || port == "" {
		return "", fmt.Errorf("%s must be a loopback address and port, e.g. 127.0.0.1:6060", pprofEnv)
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.IsLoopback() {
		return "", fmt.Errorf("%s must be a loopback address (127.0.0.1 or ::1), not %q", pprofEnv, host)
	}
	return net.JoinHostPort(ip.String(), port), nil
}

func pprofMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// registerPprof serves the profiles while PocketBase serves, when PB_PPROF is set; a bad value
// stops the start-up.
func registerPprof(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		if err := startPprof(); err != nil {
			return err
		}
		return se.Next()
	})
}

func startPprof() error {
	value := os.Getenv("PB_PPROF")
	if value == "" {
		return nil
	}
	addr, err := pprofAddress(value)
	if err != nil {
		return err
	}
	listener, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("%s: %w", pprofEnv, err)
	}
	runtime.SetBlockProfileRate(blockProfileRate)
	runtime.SetMutexProfileFraction(mutexProfileFraction)
	server := &http.Server{Handler: pprofMux(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = server.Serve(listener) }()
	return nil
}
