package org.ssbjca.inbound;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.ssbjca.api.BrokerMessage;

/** The messages of one RECEIVE, sorted by {@link DeliverySteps}, and what became of them. */
final class Batch {
    /** What the RECEIVE returned. */
    final List<BrokerMessage> received;
    /** For the bean. */
    final List<BrokerMessage> application = new ArrayList<>();
    /** EndDialog and Error messages the adapter ends this side of the conversation for. */
    final List<BrokerMessage> ends = new ArrayList<>();
    /** Messages delivered again after failed deliveries. */
    final List<BrokerMessage> retried = new ArrayList<>();
    /**
     * Messages dead-lettered under a redelivery delay: a successful delivery ends their group's hold, as it does a
     * retried message's (not while sorting: the hold row must stay free for a failure of this very delivery, whose
     * new hold is written on the bookkeeping connection while this transaction is open).
     */
    final List<BrokerMessage> deadLetteredHeld = new ArrayList<>();
    int deadLettered;
    int rejectedPriorityRequests;
    /** Priority requests the batch held (consumed, never delivered), with or without a priority. */
    int priorityRequests;
    String error;
    /** What the bean's failure means ({@link FailurePolicy}): counted unless the policy or the bean says otherwise. */
    FailurePolicy.Verdict verdict = FailurePolicy.Verdict.COUNTED;
    boolean failuresRecorded;
    /** What is said of the batch's dead letters once its transaction commits (logs, notifications), or null. */
    private List<Runnable> announcements;
    /** How many of {@link #application} a per-message bean was called with, or -1: all (a batch bean). */
    int called = -1;
    /**
     * The message whose call of a per-message bean threw, or null: the failure is that message's alone (set on the
     * failure path only, by {@link DeliverySteps#deliver}).
     */
    BrokerMessage failedOn;
    /** Whether the RECEIVE took the last messages waiting in the queue ({@code Received#tookLast}). */
    boolean tookLast;
    /** Whether the RECEIVE may have drained a group with a priority ({@code Received#mayHaveDrainedPrioritised}). */
    boolean mayHaveDrainedPrioritised;

    Batch(List<BrokerMessage> received) {
        this.received = received;
    }

    /** Returns a batch of messages that all go to the bean (a redelivered dead letter, one receive-first delivery). */
    static Batch forBean(List<BrokerMessage> messages) {
        Batch b = new Batch(messages);
        b.application.addAll(messages);
        return b;
    }

    /** @param announcement said once the batch's transaction commits: a rolled-back move is moved again, and said then */
    void announceOnCommit(Runnable announcement) {
        if (announcements == null) {
            announcements = new ArrayList<>(1);
        }
        announcements.add(announcement);
    }

    /** Says what the committed batch set aside. */
    void announce() {
        if (announcements != null) {
            announcements.forEach(Runnable::run);
        }
    }

    /** Returns how many of the messages handed to the bean ({@link #seen}) it had been given before. */
    int retriedSeen() {
        if (called < 0 || called >= application.size()) {
            return retried.size();
        }
        int n = 0;
        for (BrokerMessage m : application.subList(0, called)) {
            if (retried.contains(m)) {
                n++;
            }
        }
        return n;
    }

    /**
     * Returns the messages the bean was given: all of them, except for a per-message bean that failed, which saw those
     * up to the one that failed.
     */
    List<BrokerMessage> seen() {
        return called < 0 ? application : application.subList(0, called);
    }

    /**
     * Returns the messages a failed delivery counts against: the one whose call of a per-message bean threw ({@link
     * #failedOn}), for those before it were handled and those after it not delivered; else, when the failure cannot be
     * told of one message (a batch bean threw, the bean returned but marked the transaction rollback-only, the commit
     * failed, the adapter's own work failed), every message the bean was given ({@link #seen}).
     */
    List<BrokerMessage> charged() {
        return failedOn != null ? List.of(failedOn) : seen();
    }

    UUID group() {
        return received.get(0).conversationGroupId();
    }
}
