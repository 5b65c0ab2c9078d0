package store

import (
	"errors"
	"io"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// lockHolder returns the process that holds a write lock on the file at
// path (Pebble's lock: a POSIX record lock over the whole file), or nil.
//
// A process's POSIX locks on a file are all released when it closes any
// descriptor of the file, and a process's own locks never conflict with
// its test: so when this process has the file open (its own Store holds
// the lock: Pebble opens the file only to lock it), the answer is this
// process, and the file is not opened. Otherwise it asks the system with
// F_OFD_GETLK (which takes no lock, and gives the holder's process id).
func lockHolder(path string) (*Writer, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil // no writer ever opened the store
	}
	if err != nil {
		return nil, err
	}
	if selfHasOpen(fi) {
		return &Writer{PID: os.Getpid(), Self: true}, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: io.SeekStart}
	if err := unix.FcntlFlock(f.Fd(), unix.F_OFD_GETLK, &lk); err != nil {
		return nil, err
	}
	if lk.Type == unix.F_UNLCK {
		return nil, nil
	}
	w := &Writer{}
	if lk.Pid > 0 {
		w.PID = int(lk.Pid)
	}
	return w, nil
}

// selfHasOpen reports whether this process has the file fi open.
func selfHasOpen(fi os.FileInfo) bool {
	want, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	d, err := os.Open("/proc/self/fd")
	if err != nil {
		return false
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return false
	}
	for _, name := range names {
		if _, err := strconv.Atoi(name); err != nil {
			continue
		}
		var st syscall.Stat_t
		if syscall.Stat("/proc/self/fd/"+name, &st) != nil {
			continue
		}
		if st.Ino == want.Ino && st.Dev == want.Dev {
			return true
		}
	}
	return false
}
