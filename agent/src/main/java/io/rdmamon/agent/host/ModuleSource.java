package io.rdmamon.agent.host;

import io.rdmamon.agent.host.ReadWatchdog.StuckReadException;
import io.rdmamon.agent.module.ModuleEepromSource;
import io.rdmamon.agent.module.ModuleReader;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;

import java.io.IOException;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The transceiver in each netdev's cage ({@code ethtool -m}), on its own cadence ({@link ModuleReader}): a
 * {@code module} status when one was decoded (ok), the read failed (failed, naming it) or this host cannot read the
 * module (unsupported); none when the netdev has no module (no cage, an empty one, no capture).
 */
final class ModuleSource implements PortSource {
    static final String NAME = "module";

    private final ModuleReader modules;
    private final ReadWatchdog watchdog;

    ModuleSource(ModuleReader modules, ReadWatchdog watchdog) {
        this.modules = modules;
        this.watchdog = watchdog;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String culprit(String netdev) {
        return "ethtool -m " + netdev;
    }

    @Override
    public UnaryOperator<IbPort> read(IbDevice device, IbPort port, Consumer<SourceStatus> statuses) {
        String netdev = port.netdev();
        ModuleReader.Result result = read(netdev);
        if (result.failure() != null) {
            statuses.accept(SourceStatus.failed(NAME, netdev, result.failure()));
        } else if (result.unsupported() != null) {
            statuses.accept(SourceStatus.unsupported(NAME, netdev, result.unsupported()));
        } else if (result.module() != null) {
            statuses.accept(SourceStatus.ok(NAME, netdev));
        }
        return p -> p.toBuilder().module(result.module()).build();
    }

    /** The transceiver of {@code netdev}, each read under the read deadline. */
    ModuleReader.Result read(String netdev) {
        return modules.read(netdev, this::run);
    }

    private byte[] run(String call, ModuleEepromSource source, String ifname) throws IOException {
        try {
            return watchdog.watch(call, () -> source.read(ifname));
        } catch (StuckReadException e) {
            throw new IOException(e.getMessage(), e);
        }
    }
}
