package io.rdmamon.agent.host;

import io.rdmamon.agent.lldp.LldpReader;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;

import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Each Ethernet netdev's LLDP neighbour ({@link LldpReader}); none on an InfiniBand port (LLDP is an Ethernet
 * protocol). One {@code lldp} status per netdev read: ok when a capture or lldpctl's answer was read, with or without a
 * neighbour; failed when it did not parse or lldpctl failed; unsupported when a live host has no lldpctl; none when a
 * captured root has no capture for it.
 */
final class LldpSource implements PortSource {
    private final Path hostRoot;
    private final LldpReader lldp;
    private final ReadWatchdog watchdog;

    LldpSource(Path hostRoot, LldpReader lldp, ReadWatchdog watchdog) {
        this.hostRoot = hostRoot;
        this.lldp = lldp;
        this.watchdog = watchdog;
    }

    @Override
    public String name() {
        return LldpReader.SOURCE;
    }

    @Override
    public String culprit(String netdev) {
        return hostRoot.relativize(lldp.captureFile(netdev)).toString();
    }

    @Override
    public UnaryOperator<IbPort> read(IbDevice device, IbPort port, Consumer<SourceStatus> statuses) {
        if ("InfiniBand".equals(port.linkLayer())) {
            return UnaryOperator.identity();
        }
        LldpReader.Result result = lldp.read(port.netdev(), Integer.toString(port.stateId()),
                (call, read) -> watchdog.watch(call, read::read));
        if (result.status() != null) {
            statuses.accept(result.status());
        }
        return p -> p.withNeighbor(result.neighbor());
    }
}
