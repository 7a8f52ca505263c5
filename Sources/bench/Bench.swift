import ArgumentParser

@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure concurrency runtimes on this machine: queues, locks, semaphores, groups, apply striding.",
        discussion: """
            Every backend implements the same runtime protocol; workloads run on each of them.
            Start with `bench list` to see the backends and what each cannot do.
            """,
        subcommands: [List.self]
    )
}
