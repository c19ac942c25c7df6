package io.rdmamon.agent.fabric;

import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.fabric.PmaCounters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Sweeps the subnet with the infiniband-diags tools (docs/fabric.md, "How the fabric is read"):
 * <ul>
 *   <li>topology: {@code ibnetdiscover --cache FILE} (the SMP directed-route walk, once) and
 *       {@code iblinkinfo --load-cache FILE -l} (every port's state, width and speed, from that walk: no MADs), and
 *       {@code smpquery -D portinfo 0} for the subnet prefix and SM LID;</li>
 *   <li>counters: {@code ibqueryerrors --load-cache FILE --skip-sl} three times, for the error counters (with
 *       thresholds of 0, so that every non-zero one is printed) and the data counters ({@code --counters} over the
 *       switches, and over the CAs and routers: PortCountersExtended where supported): PMA MADs only.</li>
 * </ul>
 * The walk comes first (the others read its cache); the tools after it run at once. Each tool runs with its own
 * deadline; a node that does not answer is named in the problems and skipped by the tools themselves. Not
 * thread-safe: one sweeper calls it from one worker at a time.
 */
public final class DiagsFabricReader {
    /** The thresholds file that makes ibqueryerrors print every non-zero error counter. */
    private static final String ZERO_THRESHOLDS = Stream.concat(PmaCounters.ERRORS.stream(),
                    Stream.of(PmaCounters.PORT_XMIT_WAIT)).map(name -> name + "=0\n").collect(Collectors.joining());
    /** At most this many problem lines a sweep reports; the rest are counted. */
    private static final int MAX_PROBLEMS = 50;

    private final DiagsCommand command;
    private final FabricOptions options;
    private final Clock clock;
    private final Path cache;
    private final Path thresholds;
    private DiscoveredFabric topology;
    private PortInfoText subnet;
    private String linkInfoText = "";

    public DiagsFabricReader(FabricOptions options, Clock clock) {
        this.command = new DiagsCommand(options.environment());
        this.options = options;
        this.clock = clock;
        try {
            Path dir = Files.createTempDirectory("rdmamon-fabric");
            dir.toFile().deleteOnExit();
            cache = dir.resolve("ibnetdiscover.cache");
            thresholds = Files.writeString(dir.resolve("zero-thresholds"), ZERO_THRESHOLDS);
            cache.toFile().deleteOnExit();
            thresholds.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the fabric sweeper's work files", e);
        }
    }

    /**
     * One sweep: the topology when {@code rediscover} (or none was read yet), then every port's counters.
     *
     * @param sweeper the agent's node name
     * @throws IOException when the subnet cannot be read at all (no umad access, no tools, the discovery failed):
     *                     the reason names the tool
     */
    public FabricSweep sweep(String sweeper, boolean rediscover) throws IOException {
        long start = clock.millis();
        long startNanos = System.nanoTime();
        List<String> problems = new ArrayList<>();
        boolean topologyRead = rediscover || topology == null;
        if (topologyRead) {
            discover(problems);
        }
        // Everything after the walk reads only its cache or asks single MADs, so it runs at once: each tool sends one
        // MAD at a time and waits for its answer, and those waits overlap. MADs in flight are the sum of the tools' own
        // bounds: one per ibqueryerrors pass (docs/fabric.md, "The walk first, then the rest at once").
        List<DiagsCommand.Running> started = new ArrayList<>();
        IbQueryErrorsText.Result errors;
        IbQueryErrorsText.Result data;
        try {
            DiagsCommand.Running portInfo = topologyRead ? start(started, List.of("smpquery", "-D", "portinfo", "0"))
                    : null;
            DiagsCommand.Running linkInfo = topologyRead
                    ? start(started, List.of("iblinkinfo", "--load-cache", cache.toString(), "-l")) : null;
            DiagsCommand.Running errorsPass = startCounters(started, List.of("--threshold-file", thresholds.toString()),
                    problems);
            // the data counters in two passes, switches and the rest: one pass over every node was the longest step
            // (a PortCountersExtended per port), the one the sweep waited on; split, the counters sweep of the scale
            // fabric took 367-418 ms against 452-694 (docs/performance.md, "InfiniBand fabric sweep")
            DiagsCommand.Running switchData = startCounters(started, List.of("--counters", "--switch"), problems);
            DiagsCommand.Running endpointData = startCounters(started, List.of("--counters", "--ca", "--router"),
                    problems);
            if (topologyRead) {
                readSubnet(portInfo.await());
                readLinkInfo(linkInfo.await(), problems);
            }
            errors = counters(errorsPass, problems);
            IbQueryErrorsText.Result switches = counters(switchData, problems);
            IbQueryErrorsText.Result endpoints = counters(endpointData, problems);
            data = switches == null || endpoints == null ? null : switches.and(endpoints);
        } catch (IOException | RuntimeException e) {
            started.forEach(DiagsCommand.Running::kill);
            throw e;
        }
        List<FabricNode> nodes;
        try {
            nodes = FabricAssembler.nodes(topology, IbLinkInfoText.parse(linkInfoText), errors, data, problems);
        } catch (FabricTextException e) {
            problems.add(e.getMessage());
            nodes = FabricAssembler.nodes(topology, java.util.Map.of(), errors, data, problems);
        }
        long duration = (System.nanoTime() - startNanos) / 1_000_000;
        return new FabricSweep(subnet.subnetPrefix(), subnet.smLid(), null, sweeper, start, duration, topologyRead,
                problems.isEmpty(), bounded(problems), nodes);
    }

    /** The SMP walk, which writes the cache every later pass reads. */
    private void discover(List<String> problems) throws IOException {
        DiagsCommand.Output discovered = run(List.of("ibnetdiscover", "--cache", cache.toString()));
        if (discovered.exit() != 0) {
            throw new IOException(call("ibnetdiscover") + ": exit " + discovered.exit() + ": "
                    + firstLine(discovered));
        }
        try {
            topology = IbNetDiscoverText.parse(discovered.stdout());
        } catch (FabricTextException e) {
            throw new IOException(e.getMessage(), e);
        }
        discovered.warnings().forEach(w -> problems.add("ibnetdiscover: " + w));
    }

    private void readSubnet(DiagsCommand.Output portInfo) throws IOException {
        try {
            subnet = PortInfoText.parse(portInfo.stdout());
        } catch (FabricTextException e) {
            throw new IOException(e.getMessage() + " (" + firstLine(portInfo) + ")", e);
        }
    }

    private void readLinkInfo(DiagsCommand.Output linkInfo, List<String> problems) {
        if (linkInfo.exit() != 0) {
            problems.add(call("iblinkinfo") + ": exit " + linkInfo.exit() + ": " + firstLine(linkInfo)
                    + "; port states are unknown");
            linkInfoText = "";
        } else {
            linkInfoText = linkInfo.stdout();
        }
    }

    /** One ibqueryerrors pass started; null (and a problem) when it could not start. */
    private DiagsCommand.Running startCounters(List<DiagsCommand.Running> started, List<String> mode,
                                               List<String> problems) {
        List<String> argv = new ArrayList<>(List.of("ibqueryerrors", "--load-cache", cache.toString(), "--skip-sl"));
        argv.addAll(mode);
        try {
            return start(started, argv);
        } catch (IOException e) {
            problems.add(e.getMessage());
            return null;
        }
    }

    /** One ibqueryerrors pass's answer; null (and a problem) when it failed or its output did not read. */
    private IbQueryErrorsText.Result counters(DiagsCommand.Running pass, List<String> problems) {
        if (pass == null) {
            return null;
        }
        try {
            DiagsCommand.Output output = pass.await();
            // ibqueryerrors exits 1 when it found errors beyond the thresholds: that is an answer, not a failure
            if (output.exit() > 1) {
                problems.add(call("ibqueryerrors") + ": exit " + output.exit() + ": " + firstLine(output));
                return null;
            }
            output.warnings().forEach(w -> problems.add("ibqueryerrors: " + w));
            return IbQueryErrorsText.parse(output.stdout());
        } catch (IOException | FabricTextException e) {
            problems.add(e.getMessage());
            return null;
        }
    }

    private DiagsCommand.Running start(List<DiagsCommand.Running> started, List<String> toolArgs) throws IOException {
        DiagsCommand.Running running = command.start(argv(toolArgs), options.toolTimeout());
        started.add(running);
        return running;
    }

    private DiagsCommand.Output run(List<String> toolArgs) throws IOException {
        return command.run(argv(toolArgs), options.toolTimeout());
    }

    /** The tool's argv with the sweeping CA and port ({@code -C}, {@code -P}) after its name. */
    private List<String> argv(List<String> toolArgs) {
        List<String> argv = new ArrayList<>(toolArgs);
        argv.addAll(1, options.caArguments());
        return argv;
    }

    private String call(String tool) {
        return tool + (options.caArguments().isEmpty() ? "" : " " + String.join(" ", options.caArguments()));
    }

    private static String firstLine(DiagsCommand.Output output) {
        return output.warnings().stream().findFirst().orElse("no message");
    }

    private static List<String> bounded(List<String> problems) {
        if (problems.size() <= MAX_PROBLEMS) {
            return problems;
        }
        List<String> kept = new ArrayList<>(problems.subList(0, MAX_PROBLEMS));
        kept.add("... and " + (problems.size() - MAX_PROBLEMS) + " more problems");
        return kept;
    }

}
