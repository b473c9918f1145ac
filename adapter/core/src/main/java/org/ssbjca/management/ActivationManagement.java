package org.ssbjca.management;

import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.MBeanNotificationInfo;
import javax.management.NotificationEmitter;
import javax.management.NotificationFilter;
import javax.management.NotificationListener;
import org.ssbjca.backend.DeliveryLedger;
import org.ssbjca.brokers.BrokerRegistry;
import org.ssbjca.inbound.EndpointActivation;
import org.ssbjca.inbound.ActivationMetrics;
import org.ssbjca.support.AdapterLog;

/**
 * The {@link ActivationMXBean} of one activation: reads and changes it through {@link EndpointActivation}'s public
 * methods, looks at the queue on short-lived connections, and emits the activation's events as notifications.
 */
final class ActivationManagement extends BreakerAttributes implements ActivationMXBean, NotificationEmitter {

    private static final AdapterLog LOG = AdapterLog.of(ActivationManagement.class);

    /** The most groups {@code PendingConversationGroups} lists. */
    static final int PENDING_LIMIT = 100;

    private final EndpointActivation activation;
    private final ActivationNotifications notifications = new ActivationNotifications();
    private final DeadLetterOperations deadLetters;
    private final DoctorOperations doctor;
    private final RedeliveryJobs redeliveries;
    private final QueueReadings readings;

    ActivationManagement(EndpointActivation activation) {
        this(activation, org.ssbjca.backend.BackgroundRunner.daemonThreads());
    }

    /**
     * @param activation the activation
     * @param runner runs its redelivery jobs
     */
    ActivationManagement(EndpointActivation activation, org.ssbjca.backend.BackgroundRunner runner) {
        super(activation.breaker());
        this.activation = activation;
        this.redeliveries = new RedeliveryJobs(runner);
        this.deadLetters = new DeadLetterOperations(activation);
        this.doctor = new DoctorOperations(activation);
        this.readings = new QueueReadings(activation);
    }

    /** Returns the activation's queue and database readings, kept for a few seconds. */
    QueueReadings readings() {
        return readings;
    }

    /** Returns where the activation reports its events. */
    ActivationNotifications notifications() {
        return notifications;
    }

    @Override
    public String getName() {
        return activation.name();
    }

    @Override
    public String getQueue() {
        return activation.queue();
    }

    @Override
    public String getBackend() {
        return database().source().config().toString();
    }

    @Override
    public int getMaxReaders() {
        return activation.readerCount();
    }

    @Override
    public int getWaitingReaders() {
        return activation.waitingReaders();
    }

    @Override
    public void setMaxReaders(int maxReaders) {
        try {
            activation.setMaxReaders(maxReaders);
        } catch (RuntimeException e) {
            throw ShortLivedConnection.forClient("setting MaxReaders to " + maxReaders, e);
        }
    }

    @Override
    public int getActiveReaders() {
        return activation.metrics().inFlight().size();
    }

    @Override
    public int getParkedReaders() {
        return activation.parkedReaders();
    }

    @Override
    public int getReceiveBatchSize() {
        return activation.receiveBatchSize();
    }

    @Override
    public void setReceiveBatchSize(int receiveBatchSize) {
        try {
            activation.setReceiveBatchSize(receiveBatchSize);
        } catch (RuntimeException e) {
            throw ShortLivedConnection.forClient("setting ReceiveBatchSize to " + receiveBatchSize, e);
        }
    }

    @Override
    public long getWaitTimeout() {
        return activation.waitTimeoutMillis();
    }

    @Override
    public void setWaitTimeout(long waitTimeout) {
        try {
            activation.setWaitTimeout(waitTimeout);
        } catch (RuntimeException e) {
            throw ShortLivedConnection.forClient("setting WaitTimeout to " + waitTimeout, e);
        }
    }

    @Override
    public boolean isPaused() {
        return activation.isPaused();
    }

    @Override
    public long getReceived() {
        return metrics().received();
    }

    @Override
    public long getDelivered() {
        return metrics().delivered();
    }

    @Override
    public long getCommitted() {
        return metrics().committed();
    }

    @Override
    public long getRolledBack() {
        return metrics().rolledBack();
    }

    @Override
    public long getRedelivered() {
        return metrics().redelivered();
    }

    @Override
    public long getDeadLettered() {
        return metrics().deadLettered();
    }

    @Override
    public long getErrorsReceived() {
        return metrics().errorsReceived();
    }

    @Override
    public long getPriorityRequestsRejected() {
        return metrics().priorityRequestsRejected();
    }

    @Override
    public double getMeanDeliveryMillis() {
        return metrics().meanDeliveryMillis();
    }

    @Override
    public double getP99DeliveryMillis() {
        return metrics().p99DeliveryMillis();
    }

    @Override
    public String getLastError() {
        return metrics().lastError();
    }

    @Override
    public Date getLastErrorTime() {
        Instant at = metrics().lastErrorAt();
        return at == null ? null : Date.from(at);
    }

    @Override
    public long getQueueDepth() {
        return QueueReadings.depth(activation);
    }

    @Override
    public List<PendingGroupInfo> getPendingConversationGroups() {
        return ShortLivedConnection.read(database(), "listing the pending groups of " + getQueue(), c -> {
            DeliveryLedger ledger = database().broker().ledger(c);
            return PendingGroupInfo.asRequested(ledger.pendingGroups(getQueue(), PENDING_LIMIT),
                    activation.requestedPriorities(ledger));
        });
    }

    @Override
    public List<InFlightDeliveryInfo> getInFlightDeliveries() {
        Instant now = Instant.now();
        return activation.metrics().inFlight().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> InFlightDeliveryInfo.of(e.getKey(), e.getValue(), now))
                .collect(Collectors.toList());
    }

    @Override
    public void pause() {
        activation.pause();
    }

    @Override
    public void resume() {
        activation.resume();
    }

    @Override
    public void setPriority(String groupId, int priority) {
        UUID group;
        try {
            group = UUID.fromString(groupId == null ? "" : groupId.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a conversation group id (a UUID): '" + groupId + "'");
        }
        if (priority < 0 || priority > 255) {
            throw new IllegalArgumentException("priority must be between 0 and 255, was " + priority);
        }
        ShortLivedConnection.run(database(), "setting the priority of group " + group, s -> {
            s.setPriority(group, priority);
            return null;
        });
        activation.prioritised(group);
    }

    @Override
    public List<DeadLetterInfo> listDeadLetters(int max) {
        return deadLetters.list(0, max);
    }

    @Override
    public List<DeadLetterInfo> listDeadLettersAfter(long afterId, int max) {
        return deadLetters.list(afterId, max);
    }

    @Override
    public boolean redeliverDeadLetter(long id) {
        return deadLetters.redeliver(id);
    }

    @Override
    public int purgeDeadLetters() {
        return deadLetters.purge();
    }

    @Override
    public int purgeDeadLettersOlderThan(long minutes) {
        return deadLetters.purgeOlderThan(minutes);
    }

    @Override
    public int redeliverDeadLetters(String messageType, int max) {
        return deadLetters.redeliverAll(messageType, max);
    }

    // ---- notifications: the activation's events

    @Override
    public void addNotificationListener(NotificationListener listener, NotificationFilter filter, Object handback) {
        notifications.addNotificationListener(listener, filter, handback);
    }

    @Override
    public void removeNotificationListener(NotificationListener listener) throws ListenerNotFoundException {
        notifications.removeNotificationListener(listener);
    }

    @Override
    public void removeNotificationListener(NotificationListener listener, NotificationFilter filter,
            Object handback) throws ListenerNotFoundException {
        notifications.removeNotificationListener(listener, filter, handback);
    }

    @Override
    public MBeanNotificationInfo[] getNotificationInfo() {
        return notifications.getNotificationInfo();
    }

    private ActivationMetrics metrics() {
        return activation.metrics();
    }

    private BrokerRegistry.Entry database() {
        BrokerRegistry.Entry db = activation.database();
        if (db == null) {
            throw new IllegalStateException("the activation " + activation.name() + " has not started");
        }
        return db;
    }

    /** The state codes an endpoint that can still be ended has. */
    private static final java.util.Set<String> ENDABLE_STATES = java.util.Set.of("SO", "SI", "CO", "DI", "DO", "ER");

    /** The largest age argument: 10 years in minutes. */
    static final long MAX_AGE_MINUTES = 5_256_000;

    /** Endpoints ended per transaction (and connection) by {@code endConversations}. */
    static final int END_CHUNK = 500;

    /** The most endpoints one {@code endConversations} ends. */
    static final int MAX_ENDED = 100_000;

    @Override
    public int getReconnectingReaders() {
        return metrics().reconnectingReaders();
    }

    @Override
    public long getReconnects() {
        return metrics().reconnects();
    }

    @Override
    public Date getFailingSince() {
        Instant since = metrics().failingSince();
        return since == null ? null : Date.from(since);
    }

    @Override
    public boolean isQueueDisabled() {
        return metrics().queueDisabled();
    }

    @Override
    public Date getQueueDisabledSince() {
        java.time.Instant since = activation.queueDisabledSince();
        return since == null ? null : Date.from(since);
    }

    @Override
    public void enableQueue() {
        doctor.enableQueue();
    }

    @Override
    public String lastFailedDelivery() {
        return doctor.lastFailedDelivery();
    }

    @Override
    public List<StuckTransmissionInfo> listStuckTransmissions(int max) {
        return doctor.stuckTransmissions(max);
    }

    @Override
    public long getStuckTransmissionCount() {
        return doctor.stuckTransmissionCount();
    }

    @Override
    public long getTimedDeliveries() {
        return metrics().timedDeliveries();
    }

    @Override
    public double getTotalDeliveryMillis() {
        return metrics().totalDeliveryMillis();
    }

    @Override
    public long getOldestMessageAgeSeconds() {
        return readings.get().oldestAgeSeconds();
    }

    @Override
    public long getPendingConversationGroupCount() {
        return readings.get().pendingGroups();
    }

    @Override
    public long getDeadLetterCount() {
        return readings.get().deadLetters();
    }

    @Override
    public long getTransmissionQueueDepth() {
        return readings.get().transmissionQueue();
    }

    @Override
    public List<ConversationCountInfo> getConversationEndpoints() {
        return readings.get().endpoints().stream().map(ConversationCountInfo::of).collect(Collectors.toList());
    }

    @Override
    public List<ConversationCountInfo> listConversations(long olderThanMinutes) {
        Instant before = begunBefore(olderThanMinutes);
        return ShortLivedConnection.read(database(), "listing the conversations begun over " + olderThanMinutes
                + " minutes ago", c -> database().broker().admin(c).conversationEndpoints(before))
                .stream().map(ConversationCountInfo::of).collect(Collectors.toList());
    }

    @Override
    public int endConversations(String service, String state, long olderThanMinutes, int max) {
        String what = "ending the conversations of " + service + " in state " + state;
        if (service == null || service.isBlank()) {
            throw ShortLivedConnection.forClient(what, new IllegalArgumentException("service must be given"));
        }
        if (state == null || !ENDABLE_STATES.contains(state)) {
            throw ShortLivedConnection.forClient(what, new IllegalArgumentException(
                    "state must be one of " + new java.util.TreeSet<>(ENDABLE_STATES) + ", was " + state));
        }
        if (max < 1 || max > MAX_ENDED) {
            throw ShortLivedConnection.forClient(what, new IllegalArgumentException(
                    "max must be between 1 and " + MAX_ENDED + ", was " + max));
        }
        Instant before = begunBefore(olderThanMinutes);
        List<UUID> handles = ShortLivedConnection.run(database(), what, s -> database().broker()
                .admin(s.connection()).conversationHandles(service, state, before, max));
        int ended = 0;
        try {
            for (int from = 0; from < handles.size(); from += END_CHUNK) {
                List<UUID> chunk = handles.subList(from, Math.min(handles.size(), from + END_CHUNK));
                ShortLivedConnection.run(database(), "END CONVERSATION ... WITH CLEANUP of " + chunk.size()
                        + " endpoint(s) of " + service + " (" + ended + " ended before)", s -> {
                            chunk.forEach(s::endConversationWithCleanup);
                            return null;
                        });
                ended += chunk.size();
            }
        } finally {
            // the record of who cleaned what, also of the transactions that committed before one failed
            LOG.conversationsEnded(ended, service, state, olderThanMinutes, getName());
        }
        return ended;
    }

    private static Instant begunBefore(long olderThanMinutes) {
        if (olderThanMinutes < 0 || olderThanMinutes > MAX_AGE_MINUTES) {
            throw ShortLivedConnection.forClient("listing conversations", new IllegalArgumentException(
                    "olderThanMinutes must be between 0 and " + MAX_AGE_MINUTES + ", was " + olderThanMinutes));
        }
        return olderThanMinutes == 0 ? null : Instant.now().minus(java.time.Duration.ofMinutes(olderThanMinutes));
    }

    @Override
    public List<DeadLetterGroupInfo> listDeadLetterGroups(int scanMax) {
        return deadLetters.groups(scanMax);
    }

    @Override
    public List<DeadLetterInfo> searchDeadLetters(String text, long afterId, int max) {
        return deadLetters.search(text, afterId, max);
    }

    @Override
    public byte[] exportDeadLetterBody(long id) {
        return deadLetters.body(id);
    }

    @Override
    public RedeliveryJobInfo startGroupRedelivery(String key, int max, double messagesPerSecond) {
        RedeliveryJob.checkedRate(messagesPerSecond);
        return start("group " + key, deadLetters.groupIds(key, max), messagesPerSecond);
    }

    @Override
    public RedeliveryJobInfo startRedelivery(long[] ids, double messagesPerSecond) {
        RedeliveryJob.checkedRate(messagesPerSecond);
        if (ids == null || ids.length == 0 || ids.length > DeadLetterOperations.MAX_SCAN) {
            throw new IllegalArgumentException("ids must list 1 to " + DeadLetterOperations.MAX_SCAN
                    + " dead letters, listed " + (ids == null ? 0 : ids.length));
        }
        return start(ids.length + " chosen dead letter(s)", java.util.Arrays.stream(ids).boxed().toList(),
                messagesPerSecond);
    }

    private RedeliveryJobInfo start(String what, List<Long> ids, double rate) {
        if (activation.isPaused()) {
            throw new IllegalStateException("the activation is paused: resume it before redelivering");
        }
        return redeliveries.start(new RedeliveryJob<>(activation.name(), what, ids, rate, deadLetters::redeliver,
                RedeliveryJob.Pacer.SYSTEM));
    }

    @Override
    public RedeliveryJobInfo getRedeliveryJob() {
        return redeliveries.current();
    }

    @Override
    public boolean cancelRedelivery() {
        return redeliveries.cancel();
    }
}
