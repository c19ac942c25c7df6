/**
 * The failure every subcommand reports ({@link io.rdmamon.cli.failure.CliFailure}): below the subcommand packages
 * ({@code daemon}, {@code node}) and the root package that wires them ({@code ErrorHandlers} maps it to its exit code).
 */
package io.rdmamon.cli.failure;
