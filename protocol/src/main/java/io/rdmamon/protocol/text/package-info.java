/**
 * Text from the wire: what it may hold and how a refusal quotes it. The bottom of the protocol's packages: it uses
 * none of them, and the wire codec ({@code wire}), the strict JSON reader ({@code json}) and the probe records
 * ({@code probe}) all use it.
 */
package io.rdmamon.protocol.text;
