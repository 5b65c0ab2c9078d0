//go:build !linux

package main

// totalMemoryMiB returns 0: the machine's memory is not known here.
func totalMemoryMiB() int64 { return 0 }
