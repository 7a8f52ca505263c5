import Foundation
import PackagePlugin

/// Gives `bench` the version and commit it was built from, so a run records what was measured
/// rather than whatever checkout the user happens to run it in. A prebuild command (it runs before
/// every build, so a new commit or an edited tree is seen) calls tools/build-stamp.sh, which
/// rewrites BuildStamp.swift only when its content changes: an unchanged tree recompiles nothing.
@main
struct BuildStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
        return [
            .prebuildCommand(
                displayName: "Stamping bench with its version and commit",
                executable: URL(filePath: "/bin/sh"),
                arguments: [
                    context.package.directoryURL.appending(path: "tools/build-stamp.sh").path(percentEncoded: false),
                    context.package.directoryURL.path(percentEncoded: false),
                    output.appending(path: "BuildStamp.swift").path(percentEncoded: false),
                ],
                outputFilesDirectory: output
            )
        ]
    }
}
