package org.ssbjca.support;

import static org.jboss.logging.Logger.Level.DEBUG;
import static org.jboss.logging.Logger.Level.ERROR;
import static org.jboss.logging.Logger.Level.INFO;
import static org.jboss.logging.Logger.Level.WARN;

import java.lang.invoke.MethodHandles;
import java.util.UUID;
import org.jboss.logging.BasicLogger;
import org.jboss.logging.Logger;
import org.jboss.logging.annotations.Cause;
import org.jboss.logging.annotations.LogMessage;
import org.jboss.logging.annotations.Message;
import org.jboss.logging.annotations.MessageLogger;

/**
 * Every message the adapter logs, with its id ({@code SSBJCA0nnn}): the one catalogue, which docs/reference/messages.md
 * follows (a test compares them). The ids are unique, checked when the adapter is compiled (JBoss Logging's annotation
 * processor generates this interface's implementation); each class logs under its own category through {@link
 * #of(Class)}. Ranges: 1-9 the resource adapter, 10-29 activations and readers, 30-39 outbound connections, 40-49
 * deliveries, 60-69 management, 100-109 the PostgreSQL notification threads, 110-119 table activations.
 */
@MessageLogger(projectCode = "SSBJCA", length = 4)
public interface AdapterLog extends BasicLogger {

    /**
     * Returns the catalogue, logging under that class's name.
     *
     * @param category the class that logs
     */
    static AdapterLog of(Class<?> category) {
        return Logger.getMessageLogger(MethodHandles.lookup(), AdapterLog.class, category.getName());
    }

    // ---- the resource adapter

    @LogMessage(level = INFO)
    @Message(id = 1, value = "portable broker schema ready on %s")
    void schemaReady(Object database);

    @LogMessage(level = INFO)
    @Message(id = 2, value = "ssb-jca started; default database %s")
    void started(Object defaultDatabase);

    @LogMessage(level = INFO)
    @Message(id = 3, value = "ssb-jca stopped")
    void stopped();

    @LogMessage(level = DEBUG)
    @Message(id = 4, value = "released the JDBC driver %s of the adapter's class loader")
    void driverDeregistered(String driver);

    @LogMessage(level = WARN)
    @Message(id = 5, value = "cannot deregister the JDBC driver %s; the adapter's class loader stays in memory until"
            + " the server restarts")
    void driverNotDeregistered(@Cause Throwable cause, String driver);

    @LogMessage(level = INFO)
    @Message(id = 6,
            value = "WildFly's transaction manager recovers the readers' branches under the names \"%s<database>\"")
    void branchesNamed(String prefix);

    @LogMessage(level = WARN)
    @Message(id = 7, value = "the transaction manager has no XA recovery module running: the readers' branches are not"
            + " named, and a transaction record whose reader branch already completed is reported at every recovery"
            + " scan instead of being removed")
    void noRecoveryModule();

    @LogMessage(level = DEBUG)
    @Message(id = 8, value = "cannot clear the bean introspection cache of thread group %s (%s)")
    void beanCacheNotFlushed(String group, String what);

    @LogMessage(level = INFO)
    @Message(id = 9, value = "the triggers that version the declared objects are missing on %s (createSchema is"
            + " false): BEGIN DIALOG and SEND check the declared objects in every statement; run"
            + " sql/portable/postgresql-catalog-version.sql on the database to spare them that")
    void catalogVersionMissing(Object database);

    @LogMessage(level = WARN)
    @Message(id = 220, value = "%s has max_prepared_transactions = 0: a transaction that enlists this database beside"
            + " another resource (a second database, a JMS queue) cannot prepare and fails at commit; deliveries and"
            + " sends that use this database alone commit in one phase and work. Set it above 0 and restart"
            + " PostgreSQL (docs/guide/backends.md)")
    void preparedTransactionsDisabled(Object database);

    // ---- activations and readers

    @LogMessage(level = INFO)
    @Message(id = 10, value = "activated %s on %s: %d reader(s), %s delivery, %s listener")
    void activated(String activation, Object database, int readers, String mode, String listener);

    @LogMessage(level = WARN)
    @Message(id = 11, value = "%s did not stop within %d ms")
    void readerDidNotStop(String reader, long millis);

    @LogMessage(level = INFO)
    @Message(id = 12, value = "deactivated %s")
    void deactivated(String activation);

    @LogMessage(level = WARN)
    @Message(id = 13, value = "%s: transactionTimeout=%d has no effect on %s: its XA driver ignores branch timeouts,"
            + " so a delivery's branch (and the lock on what it took) lasts until the delivery ends; on PostgreSQL"
            + " bound it with idle_in_transaction_session_timeout, or transaction_timeout (PostgreSQL 17), for the"
            + " adapter's user")
    void transactionTimeoutIgnored(String activation, int seconds, Object database);

    @LogMessage(level = WARN)
    @Message(id = 14, value = "%s: %d reader(s) running, %d waiting for a thread of the container's work manager"
            + " after %d ms: those read nothing until a thread frees. The readers of every activation (and, per"
            + " PostgreSQL database, the adapter's LISTEN and NOTIFY tasks) share its long-running pool: raise"
            + " core-threads and max-threads of /subsystem=jca/workmanager=default/long-running-threads=default"
            + " (jboss-cli write-attribute, then reload), or lower maxReaders")
    void readersWaitingForThreads(String activation, int running, int waiting, long millis);

    @LogMessage(level = WARN)
    @Message(id = 15, value = "%s: the container's work manager refused %d reader(s) (%s): they never run, and the"
            + " activation now has %d reader(s). Its long-running pool's threads and queue are most likely all taken"
            + " (the readers of every activation, the PostgreSQL LISTEN and NOTIFY tasks): raise core-threads,"
            + " max-threads and queue-length of /subsystem=jca/workmanager=default/long-running-threads=default"
            + " (jboss-cli write-attribute, then reload), or lower maxReaders; then set MaxReaders again, or redeploy")
    void readersRefused(String activation, int refused, String why, int readers);

    @LogMessage(level = WARN)
    @Message(id = 16, value = "%s: looking whether its readers got a thread of the work manager failed; a warning"
            + " SSBJCA0014 may be missing (WaitingReaders still counts them)")
    void readerLookFailed(@Cause Throwable cause, String activation);

    @LogMessage(level = WARN)
    @Message(id = 17, value = "%s: waitTimeout=%d ms is over half the transaction timeout of %d s its deliveries have"
            + " (%s). A RECEIVE waiting that long in a delivery's transaction leaves less than half of it to the"
            + " delivery of what it takes at the end of its wait, and one that waits the timeout out is rolled back by"
            + " %s and fails its reader (SSBJCA0020, SSBJCA0027): each RECEIVE now waits at most %d ms. Lower"
            + " waitTimeout to that or less, or %s")
    void waitOverTransactionTimeout(String activation, long waitMillis, int timeoutSeconds, String whose,
            String rolledBackBy, long longestWaitMillis, String fix);

    @LogMessage(level = WARN)
    @Message(id = 20, value = "%s failed (failure %d in a row); reconnecting in %d ms")
    void readerFailed(@Cause Throwable cause, String reader, int failures, long delayMillis);

    @LogMessage(level = DEBUG)
    @Message(id = 21, value = "%s: endpoint unavailable (%s); retrying in %d ms")
    void endpointUnavailable(String reader, String what, long delayMillis);

    @LogMessage(level = DEBUG)
    @Message(id = 22, value = "%s: the bean failed on %s; the transaction rolls back")
    void beanFailed(@Cause Throwable cause, String reader, Object message);

    @LogMessage(level = DEBUG)
    @Message(id = 23, value = "%s: conversation %s was already ended")
    void conversationAlreadyEnded(String reader, UUID handle);

    @LogMessage(level = DEBUG)
    @Message(id = 24, value = "%s: releasing the endpoint failed")
    void endpointReleaseFailed(@Cause Throwable cause, String reader);

    @LogMessage(level = WARN)
    @Message(id = 25, value = "%s: %s (failure %d in a row); retrying in %d ms; its readers keep retrying, logged at"
            + " debug (SSBJCA0029) until one succeeds or the cause changes")
    void queueFailing(String reader, String what, int failures, long delayMillis);

    @LogMessage(level = DEBUG)
    @Message(id = 26, value = "%s: another reader's priority scan still runs after %d ms; receiving anyway")
    void priorityScanStillRunning(String reader, long millis);

    @LogMessage(level = WARN)
    @Message(id = 27, value = "%s failed again (failure %d in a row): %s; reconnecting in %d ms")
    void readerFailedAgain(String reader, int failures, String what, long delayMillis);

    @LogMessage(level = DEBUG)
    @Message(id = 28, value = "%s: the failure's stack trace")
    void readerFailureTrace(@Cause Throwable cause, String reader);

    @LogMessage(level = DEBUG)
    @Message(id = 29, value = "%s: %s (failure %d in a row); retrying in %d ms")
    void queueStillFailing(@Cause Throwable cause, String reader, String what, int failures, long delayMillis);

    // ---- outbound connections

    @LogMessage(level = WARN)
    @Message(id = 30, value = "broker connection to %s is broken (%s); the pool will discard it")
    void connectionBroken(Object database, String what);

    @LogMessage(level = DEBUG)
    @Message(id = 31, value = "closing a discarded connection failed")
    void closingDiscardedConnectionFailed(@Cause Throwable cause);

    @LogMessage(level = ERROR)
    @Message(id = 32, value = "the BEGIN DIALOG of conversation %s, held back until its first SEND, was not written"
            + " before its transaction committed: that conversation does not exist (a defect of ssb-jca: please"
            + " report it)")
    void heldBeginDialogNotWritten(UUID handle);

    @LogMessage(level = WARN)
    @Message(id = 33, value = "writing what was held back until the end of transaction branch %s failed; the branch"
            + " rolls back")
    void heldWritesFailed(@Cause Throwable cause, Object xid);

    // ---- deliveries

    @LogMessage(level = DEBUG)
    @Message(id = 40, value = "a %s message of group %s on %s holds no priority from 0 to 255: not applied (the"
            + " reader that takes the group dead-letters it)")
    void priorityRequestIgnored(String messageType, UUID group, String queue);

    @LogMessage(level = WARN)
    @Message(id = 41, value = "%s: %d message(s) received with commitBeforeDelivery were not delivered (the bean or its"
            + " container failed); they are not delivered again")
    void receivedFirstAndLost(String reader, int messages);

    @LogMessage(level = WARN)
    @Message(id = 42, value = "%s: message %d of conversation %s (handle %s here, %s) failed %d deliveries; moved to"
            + " the dead-letter table")
    void deadLettered(String reader, long sequence, UUID conversationId, UUID handle, String messageType,
            int failures);

    @LogMessage(level = DEBUG)
    @Message(id = 43, value = "conversation %s had already ended")
    void deadLetterConversationAlreadyEnded(UUID handle);

    @LogMessage(level = WARN)
    @Message(id = 44, value = "%s: conversation %s (service %s) ended with error %s from the other side: %s; ending"
            + " this side")
    void errorFromOtherSide(String reader, UUID handle, String service, Integer code, String description);

    @LogMessage(level = WARN)
    @Message(id = 45, value = "%s: a %s message of conversation %s (handle %s here, group %s) holds no priority from"
            + " 0 to 255 (%s); moved to the dead-letter table")
    void priorityRequestRejected(String reader, String messageType, UUID conversationId, UUID handle, UUID group,
            String body);

    @LogMessage(level = WARN)
    @Message(id = 46, value = "%s: dead letter (message %d of conversation %s (handle %s here)) not sent to the"
            + " dead-letter service %s (%s); it is in the dead-letter table only")
    void deadLetterNotSent(String reader, long sequence, UUID conversationId, UUID handle, String service,
            String why);

    // ---- management

    @LogMessage(level = WARN)
    @Message(id = 60, value = "cannot register the MBean %s; the adapter runs without it")
    void mbeanNotRegistered(@Cause Throwable cause, Object name);

    @LogMessage(level = DEBUG)
    @Message(id = 61, value = "the MBean %s was already unregistered")
    void mbeanAlreadyUnregistered(Object name);

    @LogMessage(level = DEBUG)
    @Message(id = 62, value = "JMX: %s failed")
    void jmxOperationFailed(@Cause Throwable cause, String what);

    @LogMessage(level = DEBUG)
    @Message(id = 63, value = "registered %s")
    void mbeanRegistered(Object name);

    @LogMessage(level = DEBUG)
    @Message(id = 64, value = "could not send the JMX notification %s")
    void notificationNotSent(@Cause Throwable cause, String type);

    @LogMessage(level = WARN)
    @Message(id = 65, value = "cannot register the MBean %s: %d instances of that name exist")
    void mbeanNameTaken(Object name, int instances);

    @LogMessage(level = WARN)
    @Message(id = 66, value = "cannot unregister the MBean %s")
    void mbeanNotUnregistered(@Cause Throwable cause, Object name);

    @LogMessage(level = DEBUG)
    @Message(id = 67, value = "JMX: rollback failed")
    void jmxRollbackFailed(@Cause Throwable cause);

    @LogMessage(level = DEBUG)
    @Message(id = 68, value = "a JMX listener failed on %s")
    void notificationListenerFailed(@Cause Throwable cause, String type);

    // ---- PostgreSQL notifications

    @LogMessage(level = INFO)
    @Message(id = 101, value = "notification listener reconnected to %s")
    void listenerReconnected(Object database);

    @LogMessage(level = WARN)
    @Message(id = 102, value = "notification listener on %s lost its connection (%s); retrying in %d ms")
    void listenerLostConnection(Object database, String what, long delayMillis);

    @LogMessage(level = DEBUG)
    @Message(id = 124, value = "notification listener on %s still cannot listen (%s, failure %d in a row); retrying in"
            + " %d ms")
    void listenerStillLost(Object database, String what, int failures, long delayMillis);

    @LogMessage(level = DEBUG)
    @Message(id = 103, value = "notifications for %s not sent (%s); next connection attempt in %d ms")
    void notificationsNotSent(Object queues, String what, long delayMillis);

    @LogMessage(level = INFO)
    @Message(id = 104, value = "ended %d conversation endpoint(s) of service %s in state %s begun over %d minute(s)"
            + " ago (0: of any age) WITH CLEANUP, at an operator's request on %s")
    void conversationsEnded(int ended, String service, String state, long olderThanMinutes, String activation);

    @LogMessage(level = DEBUG)
    @Message(id = 105, value = "gave %d parked conversation group(s) with messages their turn again (queues %s): the"
            + " check after a commit had been lost")
    void parkedGroupsRepaired(int groups, Object queues);

    @LogMessage(level = WARN)
    @Message(id = 106, value = "the container's work manager refused %s (%s): it never runs. A PostgreSQL LISTEN or"
            + " NOTIFY task refused: readers see the messages other servers send (and theirs this server's) only at"
            + " their fallback poll; a move of a transmission backlog refused: the next repair pass (every 30 s) moves"
            + " a page and offers the rest again. Raise core-threads, max-threads and queue-length of"
            + " /subsystem=jca/workmanager=default/long-running-threads=default, then reload")
    void taskRefused(String task, String why);

    @LogMessage(level = WARN)
    @Message(id = 120, value = "firing conversation timers and lifetimes (or repairing parked groups, or moving the"
            + " transmission queue's messages onto enabled queues) after a RECEIVE that took messages failed: %s; the"
            + " messages are delivered, and it runs again at a later look")
    void housekeepingFailed(@Cause Throwable cause, String what);

    @LogMessage(level = INFO)
    @Message(id = 121, value = "moved %d message(s) that waited in ssb.transmission_queue onto queue %s, enabled again;"
            + " dropped %d whose conversation this side had ended or whose endpoint no longer exists")
    void transmissionsMoved(int moved, String queue, int dropped);

    @LogMessage(level = WARN)
    @Message(id = 122, value = "moving the messages that waited for queue %s in ssb.transmission_queue onto it failed:"
            + " %s; the housekeeping's next repair pass tries again (every 30 s)")
    void transmissionsNotMoved(@Cause Throwable cause, String queue, String what);

    @LogMessage(level = DEBUG)
    @Message(id = 123, value = "moving a page of the messages that waited for queue %s in ssb.transmission_queue onto"
            + " it failed (%s), failure %d in a row; the page rolled back, tried again in %d ms")
    void transmissionPageFailed(String queue, String what, int failures, long delayMillis);

    // ---- table activations

    @LogMessage(level = INFO)
    @Message(id = 110, value = "activated %s on table %s of %s: %d reader(s), %s mode, %s delivery")
    void tableActivated(String activation, String table, Object database, int readers, String mode, String delivery);

    @LogMessage(level = INFO)
    @Message(id = 111, value = "deactivated %s")
    void tableDeactivated(String activation);

    @LogMessage(level = WARN)
    @Message(id = 112, value = "%s: the lease on %s ended before its delivery committed (another reader may have taken"
            + " it); the delivery is rolled back. Raise leaseSeconds above the longest delivery")
    void leaseLost(String reader, Object row);

    @LogMessage(level = WARN)
    @Message(id = 113, value = "%s: the delivery of %s failed (%s); taken again in %d s, while the rows behind it"
            + " are taken; its next failures are logged at debug (SSBJCA0130) with their count")
    void rowDeliveryFailed(@Cause Throwable cause, String reader, Object row, String what, int retrySeconds);

    @LogMessage(level = DEBUG)
    @Message(id = 130, value = "%s: the delivery of %s failed again (%s): %d failures since %s; taken again in %d s")
    void rowFailedAgain(String reader, Object row, String what, int failures, String since, int retrySeconds);

    @LogMessage(level = DEBUG)
    @Message(id = 131, value = "%s: took %d row(s) held back after a failed delivery (%s ...) as their failure was"
            + " being counted, or beyond the 256 held keys a taking leaves out; given back undelivered")
    void heldRowsGivenBack(String reader, int rows, Object first);

    @LogMessage(level = WARN)
    @Message(id = 118, value = "%s: the delivery of %s failed (%s), its attempt %d of %d: set aside, no longer taken"
            + " (the TableActivation MBean's redeliverSetAside gives it another round)")
    void rowSetAside(@Cause Throwable cause, String reader, Object row, String what, int attempt, int maxAttempts);

    @LogMessage(level = WARN)
    @Message(id = 114, value = "%s failed (%s, failure %d in a row); retrying in %d ms; its readers keep retrying,"
            + " logged at debug (SSBJCA0119) until one succeeds or the cause changes")
    void tableReaderFailed(@Cause Throwable cause, String reader, String what, int failures, long delayMillis);

    @LogMessage(level = DEBUG)
    @Message(id = 119, value = "%s failed (%s, failure %d in a row); retrying in %d ms")
    void tableReaderStillFailing(@Cause Throwable cause, String reader, String what, int failures, long delayMillis);

    @LogMessage(level = INFO)
    @Message(id = 115, value = "%s: %d set-aside row(s) %s at an operator's request")
    void setAsideRows(String activation, int rows, String what);

    @LogMessage(level = WARN)
    @Message(id = 116, value = "%s: cannot resolve its table yet (%s); its readers look again as they retry")
    void tableNotFoundYet(String activation, String what);

    @LogMessage(level = WARN)
    @Message(id = 117, value = "the %s of %s did not stop within %d ms")
    void backgroundTaskDidNotStop(String task, Object database, long millis);

    // ---- SQL Server (190-199)

    @LogMessage(level = WARN)
    @Message(id = 190, value = "cannot mark the XA resource %s of mssql-jdbc tightly coupled for the branches it"
            + " completes without starting them (recovery): they are completed loosely coupled")
    void tightCouplingNotMarked(@Cause Throwable cause, Object resource);

    @LogMessage(level = INFO)
    @Message(id = 180, value = "%s: the failed delivery of group %s could not be counted before its rollback (%s);"
            + " it is counted after the rollback, when a reader may already have taken the message again")
    void failureCountDeferred(String reader, Object group, String why);

    @LogMessage(level = WARN)
    @Message(id = 210, value = "cannot remove the adapter's recovery registration %s from the transaction manager (%s);"
            + " the adapter stops all the same")
    void recoveryRegistrationNotRemoved(@Cause Throwable cause, Object registration, String what);

    // ---- the broker doctor (260-279)

    @LogMessage(level = WARN)
    @Message(id = 260, value = "%s: queue %s is disabled (Service Broker disables a queue after five rolled back"
            + " transactions that received from it, or an operator disabled it); its readers park, one looking again"
            + " every %d ms, until it is enabled: ALTER QUEUE ... WITH STATUS = ON, or the activation's enableQueue"
            + " operation (the console's Enable queue). The failed delivery the adapter counted last on it: %s."
            + " The error: %s")
    void queueDisabledReadersPark(String reader, String queue, long probeMillis, String suspect, String error);

    @LogMessage(level = INFO)
    @Message(id = 261, value = "%s: queue %s is enabled again (disabled since %s); its readers read it")
    void queueEnabledAgain(String reader, String queue, Object since);

    @LogMessage(level = INFO)
    @Message(id = 262, value = "%s: an operator enabled queue %s (%s)")
    void queueEnabledByOperator(String activation, String queue, String before);

    // ---- scheduled sends (300-309)

    @LogMessage(level = WARN)
    @Message(id = 300, value = "scheduled send %s on conversation %s (message type %s), due at %s, could not be sent"
            + " when due and is dropped: %s")
    void scheduledSendDropped(@Cause Throwable cause, Object id, Object conversation, String messageType, Object dueAt,
            String why);

    @LogMessage(level = DEBUG)
    @Message(id = 323, value = "scheduled send %s on conversation %s (message type %s) could not be sent, %d time(s) in"
            + " a row, for a reason that passes, and is kept: tried again from %s: %s")
    void scheduledSendKept(@Cause Throwable cause, Object id, Object conversation, String messageType, int failures,
            Object retryAt, String why);

    @LogMessage(level = WARN)
    @Message(id = 324, value = "scheduled send %s on conversation %s (message type %s) still could not be sent, %d"
            + " times in a row, for a reason that passes, and is kept: tried again from %s: %s")
    void scheduledSendStillKept(@Cause Throwable cause, Object id, Object conversation, String messageType,
            int failures, Object retryAt, String why);

    // ---- trace context (310-312)

    @LogMessage(level = INFO)
    @Message(id = 310, value = "OpenTelemetry's API is present: a SEND records the current span's trace context with"
            + " its message, and a delivery continues it")
    void tracingPresent();

    @LogMessage(level = DEBUG)
    @Message(id = 311, value = "OpenTelemetry's API is not present: messages carry no trace context")
    void tracingAbsent();

    @LogMessage(level = WARN)
    @Message(id = 312, value = "OpenTelemetry's API is present but cannot be used: messages carry no trace context")
    void tracingUnavailable(@Cause Throwable cause);

    // ---- a deployment's consumer spans (320-326)

    @LogMessage(level = INFO)
    @Message(id = 320, value = "activation %s delivers in consumer spans of its deployment's OpenTelemetry (%s)")
    void deploymentTracing(String activation, String openTelemetry);

    @LogMessage(level = DEBUG)
    @Message(id = 321, value = "activation %s starts no consumer span: %s; a message's trace context is made current"
            + " around the bean's call")
    void deploymentWithoutTracing(String activation, String why);

    @LogMessage(level = WARN)
    @Message(id = 322, value = "activation %s could not look up its deployment's OpenTelemetry: it starts no consumer"
            + " span; a message's trace context is made current around the bean's call")
    void deploymentTracingFailed(@Cause Throwable cause, String activation);

    // ---- the operator's throttled redeliveries (280-299)

    @LogMessage(level = INFO)
    @Message(id = 280, value = "%s: redelivery of %s started: %d dead letter(s) at %s per second")
    void redeliveryJobStarted(String activation, String what, int letters, double rate);

    @LogMessage(level = INFO)
    @Message(id = 281, value = "%s: redelivery of %s ended %s: %d redelivered, %d failed again, of %d%s")
    void redeliveryJobEnded(String activation, String what, Object state, int redelivered, int failed, int letters,
            String why);

    // ---- the operator's throttled re-queue of set-aside table rows (313-319)

    @LogMessage(level = INFO)
    @Message(id = 313, value = "%s: re-queue of %s started: %d set-aside row(s) at %s per second")
    void requeueJobStarted(String activation, String what, int rows, double rate);

    @LogMessage(level = INFO)
    @Message(id = 314, value = "%s: re-queue of %s ended %s: %d re-queued, %d no longer set aside, of %d%s")
    void requeueJobEnded(String activation, String what, Object state, int requeued, int gone, int rows, String why);

    // ---- failure policy and circuit breaker (240-259)

    @LogMessage(level = WARN)
    @Message(id = 240, value = "%s: circuit breaker open after %d failed deliveries in a row, not all of one message"
            + " (last: %s); the readers pause, and one probes with one delivery in %d ms")
    void breakerOpened(String activation, int failures, String lastError, long probeInMillis);

    @LogMessage(level = WARN)
    @Message(id = 241, value = "%s: the circuit breaker's probe failed (%s); the readers stay paused, the next probe"
            + " in %d ms")
    void breakerProbeFailed(String activation, String lastError, long probeInMillis);

    @LogMessage(level = INFO)
    @Message(id = 242, value = "%s: circuit breaker closed after %d ms open: a delivery succeeded; the readers go on")
    void breakerClosed(String activation, long openMillis);

    @LogMessage(level = WARN)
    @Message(id = 243, value = "%s: %s is unrecoverable (failure policy): %s is set aside without further attempts")
    void unrecoverableFailure(String reader, String error, Object what);

    @LogMessage(level = DEBUG)
    @Message(id = 244, value = "%s: %s is transient (failure policy): %s is delivered again without counting an"
            + " attempt")
    void transientFailure(String reader, String error, Object what);
}
