// Command bench-listener holds the capacity ramp's simulated pages (bench/lib/capacity.mjs): tens of
// thousands of GET /api/events streams, each on its own TCP connection, whose bytes are scanned for
// the events' markers (no SSE or JSON parsing). It times every message's arrival on every stream
// against the send times the bench passes in, on the same monotonic clock (CLOCK_MONOTONIC).
//
// Commands arrive as JSON lines on stdin, answers leave as JSON lines on stdout:
//
//	{"op":"open","addr":"127.0.0.1:3000","path":"/api/events?channel=…","cookies":["…"],"concurrency":50}
//	  -> {"op":"opened","ok":N,"failed":N,"error":"…"}   (each stream counts once it received "sync")
//	{"op":"begin"}                 a new sending round: forget the previous one
//	{"op":"sent","iv":"…","t":NS}  a message was sent at NS (monotonic nanoseconds)
//	{"op":"count"}                 -> {"op":"count","delivered":N}
//	{"op":"end"}                   -> {"op":"result","delivered":N,"expected":N,"ended":N,"latencies":[ms…]}
//	{"op":"close"}                 closes every stream and exits
//
// One process holds at most what its open-file limit allows; the bench runs several for more
// streams (bench/lib/listener.mjs), each connecting from its own loopback address (-source
// 127.0.0.N), since one source address has only the ephemeral ports' range (about 28,000) of
// connections to the web server's one address and port.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

var (
	ivMarker   = []byte(`\"iv\":\"`) // the envelope is JSON inside the event's JSON
	syncMarker = []byte(`"type":"sync"`)
	headEnd    = []byte("\r\n\r\n")
	eventEnd   = []byte("\n\n")
)

// ---- the clock: CLOCK_MONOTONIC, as Node's process.hrtime ----

var (
	mono0  int64
	start0 time.Time
)

func initClock() {
	var ts syscall.Timespec
	start0 = time.Now()
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 1 /* CLOCK_MONOTONIC */, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		fmt.Fprintln(os.Stderr, "clock_gettime:", errno)
		os.Exit(1)
	}
	mono0 = ts.Nano()
}

func now() int64 { return mono0 + int64(time.Since(start0)) }

// ---- deliveries of one round ----

type arrival struct {
	client int
	at     int64
}

type tally struct {
	mu        sync.Mutex
	sent      map[string]int
	sentAt    []int64
	seen      [][]uint64           // per message, a bit per client
	early     map[string][]arrival // arrivals before the bench said the message was sent
	latencies []float64
}

var round = newTally()

func newTally() *tally {
	return &tally{sent: map[string]int{}, early: map[string][]arrival{}}
}

func (t *tally) record(i, client int, at int64) {
	word, bit := client/64, uint64(1)<<(client%64)
	if word >= len(t.seen[i]) || t.seen[i][word]&bit != 0 {
		return
	}
	t.seen[i][word] |= bit
	t.latencies = append(t.latencies, float64(at-t.sentAt[i])/1e6)
}

func (t *tally) arrived(iv string, client int, at int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if i, ok := t.sent[iv]; ok {
		t.record(i, client, at)
		return
	}
	if len(t.early) < 100_000 {
		t.early[iv] = append(t.early[iv], arrival{client, at})
	}
}

func (t *tally) sending(iv string, at int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	i := len(t.sentAt)
	t.sent[iv] = i
	t.sentAt = append(t.sentAt, at)
	t.seen = append(t.seen, make([]uint64, (totalClients+63)/64))
	for _, a := range t.early[iv] {
		t.record(i, a.client, a.at)
	}
	delete(t.early, iv)
}

// ---- commands ----

type command struct {
	Op          string   `json:"op"`
	Addr        string   `json:"addr"`
	Path        string   `json:"path"`
	Cookies     []string `json:"cookies"`
	Concurrency int      `json:"concurrency"`
	IV          string   `json:"iv"`
	T           int64    `json:"t"`
}

var (
	outMu sync.Mutex
	out   = json.NewEncoder(os.Stdout)
)

func reply(v any) {
	outMu.Lock()
	defer outMu.Unlock()
	_ = out.Encode(v)
}

func main() {
	from := flag.String("source", "", "local IPv4 address to connect from (default: the kernel's choice)")
	flag.Parse()
	if *from != "" {
		ip := net.ParseIP(*from).To4()
		if ip == nil {
			fmt.Fprintln(os.Stderr, "-source: not an IPv4 address:", *from)
			os.Exit(2)
		}
		source = &syscall.SockaddrInet4{}
		copy(source.Addr[:], ip)
	}
	initClock()
	startPollers()
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 256<<20)
	for in.Scan() {
		var cmd command
		if err := json.Unmarshal(in.Bytes(), &cmd); err != nil {
			fmt.Fprintln(os.Stderr, "bad command:", err)
			continue
		}
		switch cmd.Op {
		case "open":
			ok, failed, firstErr := 0, 0, ""
			round.mu.Lock()
			first := totalClients
			totalClients += len(cmd.Cookies)
			round.mu.Unlock()
			addr, err := net.ResolveTCPAddr("tcp4", cmd.Addr)
			if err != nil {
				reply(map[string]any{"op": "opened", "ok": 0, "failed": len(cmd.Cookies), "error": err.Error()})
				continue
			}
			sem := make(chan struct{}, max(1, cmd.Concurrency))
			results := make(chan error, len(cmd.Cookies))
			for i, cookie := range cmd.Cookies {
				sem <- struct{}{}
				synced := make(chan error, 1)
				go openStream(addr, cmd.Addr, cmd.Path, cookie, first+i, synced)
				go func() {
					select {
					case err := <-synced:
						results <- err
					case <-time.After(60 * time.Second):
						results <- fmt.Errorf("no sync within 60 s")
					}
					<-sem
				}()
			}
			for range cmd.Cookies {
				if err := <-results; err != nil {
					failed++
					if firstErr == "" {
						firstErr = err.Error()
					}
				} else {
					ok++
				}
			}
			round.mu.Lock()
			liveClients += ok
			round.mu.Unlock()
			reply(map[string]any{"op": "opened", "ok": ok, "failed": failed, "error": firstErr})
		case "begin":
			round.mu.Lock()
			round.sent, round.sentAt, round.seen, round.early, round.latencies = map[string]int{}, nil, nil, map[string][]arrival{}, nil
			round.mu.Unlock()
		case "sent":
			round.sending(cmd.IV, cmd.T)
		case "count":
			round.mu.Lock()
			n := len(round.latencies)
			round.mu.Unlock()
			reply(map[string]any{"op": "count", "delivered": n})
		case "end":
			round.mu.Lock()
			latencies := round.latencies
			if latencies == nil {
				latencies = []float64{}
			}
			expected := len(round.sentAt) * liveClients
			round.mu.Unlock()
			connsMu.Lock()
			e := ended
			connsMu.Unlock()
			reply(map[string]any{"op": "result", "delivered": len(latencies), "expected": expected, "ended": e, "latencies": latencies})
		case "close":
			connsMu.Lock()
			for fd := range streams {
				syscall.Close(fd)
			}
			connsMu.Unlock()
			return
		}
	}
}
