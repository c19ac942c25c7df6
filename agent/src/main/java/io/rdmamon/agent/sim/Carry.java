package io.rdmamon.agent.sim;

/**
 * Turns fractional amounts into whole ones without losing the remainder, so the same whole count
 * can be added to several counters that must agree (e.g. packets on the PMA, vport and priority
 * counters).
 */
final class Carry {
    private double pending;

    long take(double amount) {
        if (!(amount > 0)) {
            return 0;
        }
        pending += amount;
        long whole = (long) pending;
        pending -= whole;
        return whole;
    }
}
