package io.rdmamon.collector.auth;

import java.util.Objects;

/**
 * One accepted token.
 *
 * @param role  what it grants
 * @param token the secret (never logged; {@link #toString()} hides it)
 * @param node  for agent tokens: the only node name the bearer may report as; null = any node
 */
public record TokenEntry(Role role, String token, String node) {
    public TokenEntry {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(token, "token");
        if (token.isBlank()) {
            throw new IllegalArgumentException("empty " + role.name().toLowerCase() + " token");
        }
    }

    @Override
    public String toString() {
        return "TokenEntry[role=" + role + ", token=***, node=" + node + "]";
    }
}
