import ArgumentParser

@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure concurrency runtimes on this machine: queues, locks, semaphores, groups, apply striding.",
        discussion: """
            Every backend implements the same runtime protocol; workloads run on each of them.
            Start with `bench list` to see the workloads, backends and what each cannot do, then
            `bench run --suite smoke` for a first run in seconds.
            """,
        subcommands: [List.self, RunCommand.self, CaseCommand.self]
    )
}
