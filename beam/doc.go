// Package bookbeam is the book build as an Apache Beam pipeline
// (command bookbeam): the same store bookbuild builds, from inputs read,
// deduplicated, partitioned and built on the workers of a Beam runner
// (Prism in-process, or Flink, Spark, Dataflow).
package bookbeam
