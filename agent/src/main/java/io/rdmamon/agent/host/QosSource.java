package io.rdmamon.agent.host;

import io.rdmamon.agent.qos.QosReader;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PortTransport;
import io.rdmamon.protocol.model.SourceStatus;

import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/** The QoS configuration of each RoCE port's netdev ({@link QosReader}, {@link PortTransport}), with its status. */
final class QosSource implements PortSource {
    private final QosReader qos;

    QosSource(QosReader qos) {
        this.qos = qos;
    }

    @Override
    public String name() {
        return QosReader.SOURCE_QOS;
    }

    @Override
    public String culprit(String netdev) {
        return "DCB of " + netdev;
    }

    @Override
    public UnaryOperator<IbPort> read(IbDevice device, IbPort port, Consumer<SourceStatus> statuses) {
        if (PortTransport.of(device, port) != PortTransport.ROCE) {
            return UnaryOperator.identity();
        }
        QosReader.PortQos read = qos.port(device.name(), port.port(), port.netdev(),
                port.state() + "/" + port.physState());
        if (read.status() != null) {
            statuses.accept(read.status());
        }
        return read.config() == null ? UnaryOperator.identity() : p -> p.toBuilder().qos(read.config()).build();
    }
}
