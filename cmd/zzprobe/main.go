package main

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/chessbook/chessbook/internal/savings"
	"github.com/chessbook/chessbook/store"
)

func main() {
	st, err := store.Open(os.Args[1], store.Options{ReadOnly: true})
	if err != nil {
		panic(err)
	}
	f, _ := os.Create("/tmp/savings/cpu.prof")
	pprof.StartCPUProfile(f)
	s, err := savings.Summarize(context.Background(), st, savings.SummaryOptions{Sample: 1000})
	pprof.StopCPUProfile()
	fmt.Printf("%+v %v\n", s, err)
}
