package io.rdmamon.agent.sysfs;

/** A sysfs {@code "<id>: <name>"} value ({@code state}, {@code phys_state}, {@code node_type}). */
public record IdName(int id, String name) {
}
