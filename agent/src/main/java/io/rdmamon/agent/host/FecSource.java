package io.rdmamon.agent.host;

import io.rdmamon.agent.ethtool.EthtoolStatsSource;
import io.rdmamon.agent.host.ReadWatchdog.StuckReadException;
import io.rdmamon.agent.sysfs.SlowCadenceCache;
import io.rdmamon.protocol.model.FecMode;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Each netdev's FEC encoding ({@code ethtool --show-fec}), kept on the slow cadence while the port's state is unchanged
 * (a link that retrains may negotiate another encoding); none when the driver has none. A failed read is a failed
 * {@code fec} status naming it, and is not kept; a read that succeeds has no status.
 */
final class FecSource implements PortSource {
    static final String NAME = "fec";

    private final Path hostRoot;
    private final EthtoolStatsSource ethtool;
    private final ReadWatchdog watchdog;
    /** The slow cadence (shared with the GID tables); null: read every sample. */
    private final SlowCadenceCache cadence;

    FecSource(Path hostRoot, EthtoolStatsSource ethtool, ReadWatchdog watchdog, SlowCadenceCache cadence) {
        this.hostRoot = hostRoot;
        this.ethtool = ethtool;
        this.watchdog = watchdog;
        this.cadence = cadence;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String culprit(String netdev) {
        return "ethtool --show-fec " + netdev;
    }

    @Override
    public UnaryOperator<IbPort> read(IbDevice device, IbPort port, Consumer<SourceStatus> statuses) {
        String netdev = port.netdev();
        SlowCadenceCache.Reader<FecMode> read = () -> {
            String call = culprit(netdev);
            try {
                return new SlowCadenceCache.Read<>(watchdog.watch(call, () -> ethtool.fec(netdev)), false);
            } catch (StuckReadException e) {
                statuses.accept(SourceStatus.failed(NAME, netdev, call + ": " + e.getMessage()));
            } catch (IOException e) {
                statuses.accept(SourceStatus.failed(NAME, netdev, e.getMessage()));
            }
            return new SlowCadenceCache.Read<>(null, true);
        };
        FecMode fec = cadence == null ? read.read().value()
                : cadence.get(hostRoot.resolve("ethtool").resolve(netdev).resolve("fec"),
                        Integer.toString(port.stateId()), read);
        return p -> p.toBuilder().fec(fec).build();
    }
}
