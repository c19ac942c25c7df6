package io.rdmamon.agent.host;

import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;

import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * A source of each port's netdev (ethtool statistics, transceiver, FEC, LLDP neighbour, QoS): read once per netdev and
 * sample, and its part given to every port of that netdev. Ports without a netdev are not read. The subject of its
 * statuses, and of the failed one {@link SourceRun} records when {@link #read} throws, is the netdev.
 */
public interface PortSource extends Source {
    /**
     * This source's part of {@code port}'s netdev, as what completes a port with it ({@link UnaryOperator#identity()}:
     * nothing); its statuses go to {@code statuses}.
     */
    UnaryOperator<IbPort> read(IbDevice device, IbPort port, Consumer<SourceStatus> statuses) throws Exception;
}
