module runtimebench/go-reference

go 1.19
