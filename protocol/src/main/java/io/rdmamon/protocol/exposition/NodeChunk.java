package io.rdmamon.protocol.exposition;

import io.rdmamon.protocol.model.HostSample;

/**
 * The series of one node's sample, rendered once and kept until the node's next sample: the bytes of
 * family {@code families[i]} are {@code data[offsets[i] .. offsets[i + 1])}.
 *
 * @param sample   the sample rendered (compared by identity: samples are immutable and replaced, never changed)
 * @param data     the sample lines of every family, family after family
 * @param families the families present, in the order of their bytes
 * @param offsets  start of each family's bytes, plus the end
 */
public record NodeChunk(HostSample sample, byte[] data, Family[] families, int[] offsets) {
}
