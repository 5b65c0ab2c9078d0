package main

import "syscall"

// totalMemoryMiB returns the machine's memory in MiB, or 0 if unknown.
func totalMemoryMiB() int64 {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0
	}
	return int64(si.Totalram) * int64(si.Unit) >> 20
}
