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
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"runtime"
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

// ---- streams ----
//
// Each stream is a non-blocking socket read by one of a few epoll loops (one per core, each on its
// own thread): one read per readiness, no goroutine per connection, so the listener spends about
// one system call per batch of events a web process writes.

type stream struct {
	fd     int
	client int
	buf    []byte
	head   bool
	synced bool
	ready  chan<- error
}

const pollPause = 2 * time.Millisecond

type poller struct {
	epfd int
}

var (
	connsMu sync.Mutex
	streams = map[int]*stream{} // by fd
	ended   int
	pollers []*poller
	// streams ever opened (their index range), and those that reached "sync"
	totalClients int
	liveClients  int
)

func startPollers() {
	for range max(1, runtime.NumCPU()) {
		epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
		if err != nil {
			fmt.Fprintln(os.Stderr, "epoll_create1:", err)
			os.Exit(1)
		}
		p := &poller{epfd: epfd}
		pollers = append(pollers, p)
		go p.run()
	}
}

func (p *poller) run() {
	runtime.LockOSThread()
	events := make([]syscall.EpollEvent, 1024)
	chunk := make([]byte, 64<<10)
	for {
		// A short pause between rounds lets the events of many streams gather: one epoll_wait for
		// them, and the web server's writes rarely have to wake this thread. It adds at most
		// pollPause to the measured delivery times.
		time.Sleep(pollPause)
		n, err := syscall.EpollWait(p.epfd, events, -1)
		if err != nil {
			if err == syscall.EINTR {
				continue
			}
			fmt.Fprintln(os.Stderr, "epoll_wait:", err)
			os.Exit(1)
		}
		for _, ev := range events[:n] {
			fd := int(ev.Fd)
			connsMu.Lock()
			s := streams[fd]
			connsMu.Unlock()
			if s == nil {
				continue
			}
			r, err := syscall.Read(fd, chunk)
			if err == syscall.EAGAIN || err == syscall.EINTR {
				continue
			}
			if r <= 0 {
				s.end(err)
				continue
			}
			s.feed(chunk[:r], now())
		}
	}
}

// end: the web server closed the stream (or the read failed).
func (s *stream) end(err error) {
	connsMu.Lock()
	delete(streams, s.fd)
	if s.synced {
		ended++
	}
	connsMu.Unlock()
	syscall.Close(s.fd)
	if !s.synced {
		s.ready <- fmt.Errorf("stream closed before sync: %v", err)
	}
}

// feed scans what arrived for events (their envelope's iv) and the "sync" event.
func (s *stream) feed(data []byte, at int64) {
	s.buf = append(s.buf, data...)
	if s.head {
		end := bytes.Index(s.buf, headEnd)
		if end < 0 {
			return
		}
		if len(s.buf) < 12 || string(s.buf[9:12]) != "200" {
			err := fmt.Errorf("event stream answered %q", s.buf[:min(len(s.buf), 40)])
			connsMu.Lock()
			delete(streams, s.fd)
			connsMu.Unlock()
			syscall.Close(s.fd)
			s.ready <- err
			return
		}
		s.head = false
		s.buf = append(s.buf[:0], s.buf[end+4:]...)
	}
	last := bytes.LastIndex(s.buf, eventEnd)
	if last < 0 {
		return
	}
	events := s.buf[:last]
	for i := bytes.Index(events, ivMarker); i >= 0; {
		from := i + len(ivMarker)
		stop := bytes.IndexByte(events[from:], '\\')
		if stop < 0 {
			break
		}
		round.arrived(string(events[from:from+stop]), s.client, at)
		next := bytes.Index(events[from+stop:], ivMarker)
		if next < 0 {
			break
		}
		i = from + stop + next
	}
	if !s.synced && bytes.Contains(events, syncMarker) {
		s.synced = true
		s.ready <- nil
	}
	s.buf = append(s.buf[:0], s.buf[last+2:]...)
}

// openStream connects (blocking), sends the request, then hands the socket to a poller.
func openStream(addr *net.TCPAddr, host, path, cookie string, client int, ready chan<- error) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		ready <- err
		return
	}
	sa := &syscall.SockaddrInet4{Port: addr.Port}
	copy(sa.Addr[:], addr.IP.To4())
	if err := syscall.Connect(fd, sa); err != nil {
		syscall.Close(fd)
		ready <- err
		return
	}
	request := []byte(fmt.Sprintf("GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\nCookie: %s\r\n\r\n", path, host, cookie))
	for len(request) > 0 {
		n, err := syscall.Write(fd, request)
		if err != nil {
			syscall.Close(fd)
			ready <- err
			return
		}
		request = request[n:]
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		ready <- err
		return
	}
	s := &stream{fd: fd, client: client, buf: make([]byte, 0, 8192), head: true, ready: ready}
	connsMu.Lock()
	streams[fd] = s
	connsMu.Unlock()
	p := pollers[client%len(pollers)]
	event := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP, Fd: int32(fd)}
	if err := syscall.EpollCtl(p.epfd, syscall.EPOLL_CTL_ADD, fd, &event); err != nil {
		connsMu.Lock()
		delete(streams, fd)
		connsMu.Unlock()
		syscall.Close(fd)
		ready <- err
	}
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
