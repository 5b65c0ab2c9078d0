//go:build !unix

package main

import "net"

// hasPending reports false: whether a client has sent bytes the server has
// not read yet is not known here.
func hasPending(net.Conn) bool { return false }
