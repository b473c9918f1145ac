package org.ssbjca.backend;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.ssbjca.api.BrokerMessage;

/**
 * What one RECEIVE took, and what it learnt about the queue while taking it. Immutable.
 *
 * @param messages the messages of one conversation group, in order; empty on timeout
 * @param recordedAttempts the failed deliveries recorded for those messages by {@link DeliveryLedger#key} (messages
 *        without any left out), read by the RECEIVE in its transaction after it took them; empty when the RECEIVE did
 *        not read them ({@link BrokerSession#readAttemptsWithReceive}): the reader then asks the ledger
 * @param tookLast true only when the backend knows the RECEIVE took the last messages waiting for a reader in its
 *        queue, so that once its transaction commits another reader finds none (PostgreSQL)
 * @param mayHaveDrainedPrioritised false only when the backend knows the RECEIVE took nothing from a group with a
 *        priority, or left such a group messages
 */
public record Received(List<BrokerMessage> messages, Optional<Map<String, Integer>> recordedAttempts,
        boolean tookLast, boolean mayHaveDrainedPrioritised) {

    /** A RECEIVE that took nothing. */
    public static final Received NOTHING = new Received(List.of(), Optional.of(Map.of()), false, false);

    public Received {
        Objects.requireNonNull(messages, "messages");
        Objects.requireNonNull(recordedAttempts, "recordedAttempts");
    }

    /** Returns whether the RECEIVE took nothing. */
    public boolean isEmpty() {
        return messages.isEmpty();
    }
}
