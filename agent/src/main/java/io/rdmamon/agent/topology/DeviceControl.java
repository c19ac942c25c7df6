package io.rdmamon.agent.topology;

/**
 * The PCI Express capability's Device Control register (cap+8): bits 7:5 Max Payload Size, 14:12 Max Read Request
 * Size (both 128 × 2^n bytes), bit 4 Enable Relaxed Ordering.
 */
public record DeviceControl(int raw) {
    public int maxPayloadBytes() {
        return 128 << (raw >> 5 & 7);
    }

    public int maxReadRequestBytes() {
        return 128 << (raw >> 12 & 7);
    }

    public boolean relaxedOrdering() {
        return (raw >> 4 & 1) == 1;
    }
}
