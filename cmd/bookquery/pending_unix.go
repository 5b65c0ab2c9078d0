//go:build unix

package main

import (
	"net"
	"syscall"
)

// hasPending reports whether the client of c has sent bytes that the
// server has not read yet (a request on its way to its handler), without
// reading them.
func hasPending(c net.Conn) bool {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	pending := false
	var buf [1]byte
	// Control, not Read: the connection's goroutine may be in a Read,
	// which holds the descriptor's read lock while it waits.
	_ = rc.Control(func(fd uintptr) {
		n, _, err := syscall.Recvfrom(int(fd), buf[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		pending = err == nil && n > 0
	})
	return pending
}
