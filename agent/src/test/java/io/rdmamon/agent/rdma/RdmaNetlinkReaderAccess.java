package io.rdmamon.agent.rdma;

import io.rdmamon.nativeio.rdma.QueuePairEntry;
import io.rdmamon.protocol.model.QueuePair;

/** Lets tests of other packages turn a RES_QP_GET entry into the model as the reader does. */
public final class RdmaNetlinkReaderAccess {
    private RdmaNetlinkReaderAccess() {
    }

    public static QueuePair toModel(QueuePairEntry qp) {
        return RdmaNetlinkReader.toModel(qp);
    }
}
