package io.rdmamon.agent.host;

import io.rdmamon.agent.qos.QosReader;
import io.rdmamon.protocol.model.SourceStatus;

import java.util.function.Consumer;

/** {@code etc/nccl.conf}'s settings ({@link QosReader#ncclConf()}): a {@code qos} status only when the file exists. */
final class NcclConfSource implements HostSource {
    private final QosReader qos;

    NcclConfSource(QosReader qos) {
        this.qos = qos;
    }

    @Override
    public String name() {
        return QosReader.SOURCE_QOS;
    }

    @Override
    public String subject() {
        return QosReader.NCCL_CONF;
    }

    @Override
    public String culprit(String subject) {
        return QosReader.NCCL_CONF;
    }

    @Override
    public void read(HostParts parts, Consumer<SourceStatus> statuses) {
        QosReader.NcclConf conf = qos.ncclConf();
        if (conf.status() != null) {
            statuses.accept(conf.status());
        }
        parts.ncclConf(conf.entries());
    }
}
