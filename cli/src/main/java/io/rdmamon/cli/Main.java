package io.rdmamon.cli;

import io.rdmamon.cli.daemon.AgentCommand;
import io.rdmamon.cli.daemon.CollectorCommand;
import io.rdmamon.cli.daemon.DemoCommand;
import io.rdmamon.cli.failure.CliFailure;
import io.rdmamon.cli.terminal.TerminalSafeWriter;
import io.rdmamon.cli.node.DevinfoCommand;
import io.rdmamon.cli.node.GidsCommand;
import io.rdmamon.cli.node.ModuleCommand;
import io.rdmamon.cli.node.PcieCommand;
import io.rdmamon.cli.node.WorkloadsCommand;
import io.rdmamon.cli.node.TopoCommand;
import io.rdmamon.cli.node.NcclEnvCommand;
import io.rdmamon.cli.node.PerfCommand;
import io.rdmamon.cli.node.QosCommand;
import io.rdmamon.cli.node.SampleCommand;
import io.rdmamon.cli.node.StatCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.Charset;
import java.util.concurrent.Callable;

/**
 * The {@code rdmamon} command (docs/architecture.md "The rdmamon command"). Exit 0 on success, 1 on runtime failure, 2
 * on bad
 * usage or bad input, with a one-line reason on stderr.
 *
 * <p>To add a subcommand, list its class in {@code subcommands} below. It inherits
 * {@code --help} and {@code -V/--version} ({@code scope = INHERIT}) and the exit-code mapping of
 * {@link #commandLine()}; it should print through {@code spec.commandLine().getOut()} and signal
 * bad input with {@link CliFailure#badInput}.
 */
@Command(name = "rdmamon",
        scope = ScopeType.INHERIT,
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "RDMA network monitor: node readers, agent, collector.",
        subcommands = {
                DevinfoCommand.class,
                GidsCommand.class,
                PcieCommand.class,
                WorkloadsCommand.class,
                TopoCommand.class,
                ModuleCommand.class,
                NcclEnvCommand.class,
                PerfCommand.class,
                StatCommand.class,
                SampleCommand.class,
                QosCommand.class,
                AgentCommand.class,
                CollectorCommand.class,
                DemoCommand.class,
                CommandLine.HelpCommand.class,
        })
public final class Main implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command tree with rdmamon's exit-code mapping, printing to stdout and stderr. */
    public static CommandLine commandLine() {
        return commandLine(new OutputStreamWriter(System.out, Charset.defaultCharset()),
                new OutputStreamWriter(System.err, Charset.defaultCharset()));
    }

    /**
     * The command tree printing to {@code out} and {@code err} through {@link TerminalSafeWriter}: text from hosts
     * reaches the terminal with its control characters escaped, whichever command prints it. picocli's own colours
     * are off, since their escapes would be escaped too.
     */
    public static CommandLine commandLine(Writer out, Writer err) {
        CommandLine cli = new CommandLine(new Main());
        cli.setParameterExceptionHandler(ErrorHandlers::onBadUsage);
        cli.setExecutionExceptionHandler(ErrorHandlers::onFailure);
        cli.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        cli.setOut(new PrintWriter(new TerminalSafeWriter(out), true));
        cli.setErr(new PrintWriter(new TerminalSafeWriter(err), true));
        return cli;
    }

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "missing subcommand");
    }
}
