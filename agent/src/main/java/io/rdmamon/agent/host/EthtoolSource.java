package io.rdmamon.agent.host;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.agent.ethtool.EthtoolStatsSource;
import io.rdmamon.agent.ethtool.EthtoolViews;
import io.rdmamon.agent.host.ReadWatchdog.StuckReadException;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;

import java.io.IOException;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Each netdev's ethtool statistics ({@code ethtool -S}): ok when read, unsupported for a driver without statistics,
 * failed naming the call or file otherwise; the port is reported either way.
 */
final class EthtoolSource implements PortSource {
    static final String NAME = "ethtool";

    private final EthtoolStatsSource ethtool;
    private final ReadWatchdog watchdog;
    /** Each netdev's typed-view rules, resolved once per list of names. */
    private final EthtoolViews views = new EthtoolViews();

    EthtoolSource(EthtoolStatsSource ethtool, ReadWatchdog watchdog) {
        this.ethtool = ethtool;
        this.watchdog = watchdog;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String culprit(String netdev) {
        return "ethtool -S " + netdev;
    }

    @Override
    public UnaryOperator<IbPort> read(IbDevice device, IbPort port, Consumer<SourceStatus> statuses) {
        String netdev = port.netdev();
        String call = culprit(netdev);
        try {
            EthtoolStats stats = views.of(netdev, watchdog.watch(call, () -> ethtool.sample(netdev)));
            statuses.accept(SourceStatus.ok(NAME, netdev));
            return p -> p.toBuilder().ethtool(stats).build();
        } catch (UnsupportedCapabilityException e) {
            statuses.accept(SourceStatus.unsupported(NAME, netdev, e.getMessage()));
        } catch (StuckReadException e) {
            statuses.accept(SourceStatus.failed(NAME, netdev, call + ": " + e.getMessage()));
        } catch (IOException e) {
            statuses.accept(SourceStatus.failed(NAME, netdev, e.getMessage()));
        }
        return UnaryOperator.identity();
    }
}
