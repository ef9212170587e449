// The listener's streams: non-blocking sockets read by a few epoll loops, scanned for the events' markers (main.go).
package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"
)

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

// IP_BIND_ADDRESS_NO_PORT (linux/in.h): bind picks the address only, connect picks the port.
const ipBindAddressNoPort = 24

// source: the local address the streams connect from (-source), nil for the kernel's choice.
var source *syscall.SockaddrInet4

// openStream connects (blocking), sends the request, then hands the socket to a poller.
func openStream(addr *net.TCPAddr, host, path, cookie string, client int, ready chan<- error) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		ready <- err
		return
	}
	if source != nil {
		// The source address is chosen, its port left to connect(): each source address of 127/8 has
		// its own ephemeral ports towards the web server's one address and port (about 28,000).
		if err := syscall.SetsockoptInt(fd, syscall.IPPROTO_IP, ipBindAddressNoPort, 1); err != nil {
			syscall.Close(fd)
			ready <- err
			return
		}
		if err := syscall.Bind(fd, source); err != nil {
			syscall.Close(fd)
			ready <- err
			return
		}
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
