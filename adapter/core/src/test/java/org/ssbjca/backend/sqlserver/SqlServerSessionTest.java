package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.backend.sqlserver.FakeJdbc.row;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Scope;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ConversationEndedException;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.QueueDisabledException;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.GroupPresence;
import org.ssbjca.backend.QueueSignals;
import org.ssbjca.backend.ReceiveCancelledException;
import org.ssbjca.backend.Received;

/** The session's binding, flow and error mapping, against a scripted JDBC connection. */
class SqlServerSessionTest {

    private static final UUID HANDLE = UUID.fromString("0f7bd7a6-8f4c-4b35-9b56-3c2f0e8a1d01");
    private static final UUID GROUP = UUID.fromString("6b1f1d8e-2a55-4d8c-8a0e-9d6d1c2b3a02");
    private static final UUID OTHER_GROUP = UUID.fromString("c3a0e5f4-7b6d-4e1a-9f8b-0a1b2c3d4e03");
    private static final UUID CONVERSATION = UUID.fromString("a9e8d7c6-b5a4-4321-8fed-cba987654304");

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String SPAN = "00f067aa0ba902b7";
    private static final String PARENT = "00-" + TRACE + "-" + SPAN + "-01";

    private final FakeJdbc jdbc = new FakeJdbc();
    private final QueueSignals signals = new QueueSignals();
    private final SqlServerSession session = new SqlServerSession(signals, jdbc.connection());

    @Test
    void beginDialogBindsEveryValueAndReadsTheNewEndpoint() {
        jdbc.rows(row("conversation_handle", HANDLE.toString().toUpperCase(), "conversation_id",
                CONVERSATION.toString(), "conversation_group_id", GROUP.toString()));
        Conversation c = session.beginDialog("EchoClientService", "EchoService", "EchoContract",
                DialogOptions.defaults().withRelatedConversationGroup(GROUP).withLifetime(Duration.ofMinutes(10)));
        assertEquals(new Conversation(HANDLE, CONVERSATION, GROUP), c);
        assertEquals(CONVERSATION, c.conversationId());
        assertEquals(GROUP, c.conversationGroupId());
        FakeJdbc.Call call = jdbc.calls.get(0);
        assertEquals(TSql.beginDialog("EchoClientService", "EchoContract", TSql.Related.CONVERSATION_GROUP, true,
                false), call.sql);
        assertEquals(List.of("EchoService", GROUP.toString(), 600), call.params());
    }

    @Test
    void theTargetServiceIsAParameterNeverText() {
        String hostile = "x'; DROP TABLE t; --";
        jdbc.rows(row("conversation_handle", HANDLE.toString(), "conversation_id", CONVERSATION.toString(),
                "conversation_group_id", GROUP.toString()));
        session.beginDialog("EchoClientService", hostile, "EchoContract", DialogOptions.defaults());
        FakeJdbc.Call call = jdbc.calls.get(0);
        assertEquals(List.of(hostile), call.params());
        assertTrue(!call.sql.contains("DROP TABLE"), call.sql);
    }

    @Test
    void sendBindsHandleAndBodyAndSignalsTheTargetQueueOnCommit() {
        jdbc.rows(row("queue_name", "EchoServiceQueue"));
        byte[] body = "<hello/>".getBytes(StandardCharsets.UTF_8);
        long before = signals.generation("EchoServiceQueue");
        session.send(HANDLE, "EchoRequest", body);
        FakeJdbc.Call call = jdbc.calls.get(0);
        assertEquals(TSql.send("EchoRequest", true), call.sql);
        assertEquals(HANDLE.toString(), call.params.get(1));
        assertArrayEquals(body, (byte[]) call.params.get(2));
        assertEquals(before, signals.generation("EchoServiceQueue"), "no signal before the commit");
        session.afterCompletion(true);
        assertEquals(before + 1, signals.generation("EchoServiceQueue"));
    }

    /**
     * Issue 48: with a span current, the SEND goes through ssb.send_traced with the span's context, the message type
     * a value (the procedure quotes it) and an empty body a typed NULL; without one it is the plain SEND above.
     */
    @Test
    void aSendWithACurrentSpanGoesThroughSendTracedWithItsContext() {
        byte[] body = "<hello/>".getBytes(StandardCharsets.UTF_8);
        try (Scope ignored = Span.wrap(SpanContext.create(TRACE, SPAN, TraceFlags.getSampled(),
                TraceState.getDefault())).makeCurrent()) {
            session.send(HANDLE, "EchoRequest", body);
            session.send(HANDLE, "EchoRequest", new byte[0]);
        }
        FakeJdbc.Call withBody = jdbc.calls.get(0);
        assertEquals(TSql.SEND_TRACED, withBody.sql);
        assertEquals(List.of(HANDLE.toString(), "EchoRequest"), withBody.params().subList(0, 2));
        assertArrayEquals(body, (byte[]) withBody.params().get(2));
        assertEquals(PARENT, withBody.params().get(3));
        FakeJdbc.Call empty = jdbc.calls.get(1);
        assertEquals(TSql.SEND_TRACED, empty.sql);
        assertEquals(4, empty.params().size());
        assertEquals(null, empty.params().get(2), "a NULL body (ssb.send_traced then sends no body clause)");
        assertThrows(IllegalArgumentException.class, () -> {
            try (Scope ignored = Span.wrap(SpanContext.create(TRACE, SPAN, TraceFlags.getSampled(),
                    TraceState.getDefault())).makeCurrent()) {
                session.send(HANDLE, "bad\u0000name", body);
            }
        }, "the message type is checked as the plain SEND's");
    }

    /** Issue 48: the RECEIVE's batch returns each message's trace context, taken from ssb.message_trace. */
    @Test
    void aReceivedMessageCarriesTheTraceContextItsRowHad() {
        Map<String, Object> traced = new java.util.LinkedHashMap<>(message(GROUP, 1));
        traced.put("trace_context", PARENT);
        jdbc.rows(traced, message(GROUP, 2));
        List<BrokerMessage> got = session.receive(ReceiveRequest.from("EchoServiceQueue").top(5), false, false)
                .messages();
        assertEquals(Optional.of(PARENT), got.get(0).traceContext());
        assertEquals(Optional.empty(), got.get(1).traceContext());
        assertEquals(1, jdbc.calls.size(), "no statement besides the RECEIVE's batch");
    }

    @Test
    void aRolledBackSendSignalsNothing() {
        jdbc.rows(row("queue_name", "EchoServiceQueue"));
        session.send(HANDLE, "EchoRequest", new byte[] {1});
        long before = signals.generation("EchoServiceQueue");
        session.afterCompletion(false);
        session.afterCompletion(true);
        assertEquals(before, signals.generation("EchoServiceQueue"));
    }

    @Test
    void anEmptyBodyIsSentWithoutTheBodyClause() {
        session.send(HANDLE, "EchoRequest", null);
        session.send(HANDLE, "EchoRequest", new byte[0]);
        for (FakeJdbc.Call call : jdbc.calls) {
            assertEquals(TSql.send("EchoRequest", false), call.sql);
            assertEquals(List.of(HANDLE.toString()), call.params());
        }
    }

    @Test
    void sendOnAnEndedConversationIsConversationEnded() {
        jdbc.error(8429, "The conversation endpoint is not in a valid state for SEND."
                + " The current endpoint state is 'DI'.");
        ConversationEndedException e = assertThrows(ConversationEndedException.class,
                () -> session.send(HANDLE, "EchoRequest", new byte[] {1}));
        assertInstanceOf(SQLException.class, e.getCause());
        assertTrue(e.getMessage().startsWith("SEND of message type 'EchoRequest' on conversation " + HANDLE),
                e.getMessage());
        assertTrue(e.getMessage().contains("SQL Server error 8429"), e.getMessage());
    }

    @Test
    void endConversationWithErrorBindsCodeAndDescription() {
        session.endConversation(HANDLE, 42, "it's broken");
        FakeJdbc.Call call = jdbc.calls.get(0);
        assertEquals(TSqlLedger.endConversation(true), call.sql);
        assertEquals(List.of(HANDLE.toString(), 42, "it's broken"), call.params());
        assertThrows(IllegalArgumentException.class, () -> session.endConversation(HANDLE, 0, "x"));
        assertThrows(IllegalArgumentException.class, () -> session.endConversation(HANDLE, 1, null));
        assertThrows(IllegalArgumentException.class, () -> session.endConversation(HANDLE, 1, "x".repeat(3001)));
        assertEquals(1, jdbc.calls.size());
    }

    @Test
    void endingAnUnknownConversationIsConversationEnded() {
        jdbc.error(8426, "The conversation handle \"" + HANDLE + "\" is not found.");
        assertThrows(ConversationEndedException.class, () -> session.endConversation(HANDLE, null, null));
    }

    @Test
    void timerMoveAndCleanupBindTheirValues() {
        session.beginConversationTimer(HANDLE, Duration.ofSeconds(90));
        session.moveConversation(HANDLE, GROUP);
        session.endConversationWithCleanup(HANDLE);
        assertEquals(TSql.BEGIN_CONVERSATION_TIMER, jdbc.calls.get(0).sql);
        assertEquals(List.of(HANDLE.toString(), 90), jdbc.calls.get(0).params());
        assertEquals(TSql.MOVE_CONVERSATION, jdbc.calls.get(1).sql);
        assertEquals(List.of(HANDLE.toString(), GROUP.toString()), jdbc.calls.get(1).params());
        assertEquals(TSqlLedger.END_CONVERSATION_WITH_CLEANUP, jdbc.calls.get(2).sql);
        assertThrows(IllegalArgumentException.class, () -> session.beginConversationTimer(HANDLE, Duration.ZERO));
    }

    /**
     * A scheduled send calls ssb.schedule_send with the due instant or the delay (the other a typed NULL) and reads the
     * row it wrote; a cancel reads the count it selects, since SET NOCOUNT ON leaves mssql-jdbc's update count at -1;
     * the procedure's refusal of an ended conversation (THROW 50300) is a ConversationEndedException.
     */
    @Test
    void aScheduledSendCallsTheProcedureAndACancelReadsTheSelectedCount() {
        UUID id = UUID.fromString("0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0");
        java.time.OffsetDateTime due = java.time.OffsetDateTime.parse("2030-01-02T03:04:05.123Z");
        jdbc.rows(row("scheduled_id", id.toString().toUpperCase(), "due_at", due))
                .rows(row("scheduled_id", id.toString().toUpperCase(), "due_at", due))
                .rows(row("cancelled", 1)).rows(row("cancelled", 0))
                .error(50300, "scheduled SEND: the conversation does not exist or cannot send");

        org.ssbjca.api.ScheduledSend delayed = session.scheduleSend(HANDLE, "//Echo/Request", new byte[] {1},
                org.ssbjca.backend.DueTime.after(Duration.ofMillis(90_500)));
        org.ssbjca.api.ScheduledSend timed = session.scheduleSend(HANDLE, "//Echo/Request", null,
                org.ssbjca.backend.DueTime.at(due.toInstant()));
        assertEquals(id, delayed.id());
        assertEquals(due.toInstant(), timed.dueAt());
        assertEquals(TSql.SCHEDULE_SEND, jdbc.calls.get(0).sql);
        List<Object> first = jdbc.calls.get(0).params();
        assertEquals(HANDLE.toString(), first.get(0));
        assertEquals("//Echo/Request", first.get(1));
        assertArrayEquals(new byte[] {1}, (byte[]) first.get(2));
        assertEquals(java.sql.Types.TIMESTAMP_WITH_TIMEZONE, jdbc.calls.get(0).nullTypes.get(4));
        assertEquals(90_500L, first.get(4));
        FakeJdbc.Call second = jdbc.calls.get(1);
        assertEquals(java.sql.Types.VARBINARY, second.nullTypes.get(3));
        assertEquals(java.sql.Types.BIGINT, second.nullTypes.get(5));
        assertEquals(due, second.params().get(3));

        assertTrue(session.cancelScheduledSend(id));
        assertFalse(session.cancelScheduledSend(id));
        assertEquals(TSql.CANCEL_SCHEDULED_SEND, jdbc.calls.get(2).sql);
        assertEquals(List.of(id.toString()), jdbc.calls.get(2).params());
        assertThrows(ConversationEndedException.class, () -> session.scheduleSend(HANDLE, "//Echo/Request", null,
                org.ssbjca.backend.DueTime.after(Duration.ZERO)));
    }

    @Test
    void aPrioritisedGroupIsTriedFirstAndALockedOneSkipped() {
        jdbc.rows(row("conversation_group_id", GROUP.toString()), row("conversation_group_id", OTHER_GROUP.toString()))
                .rows() // GROUP: locked by another transaction (error 1222 swallowed by the batch), nothing received
                .rows(message(OTHER_GROUP, 1));
        List<BrokerMessage> got = session.receive(ReceiveRequest.from("dbo.EchoServiceQueue").top(10)
                .timeout(Duration.ofSeconds(30)));
        assertEquals(1, got.size());
        assertEquals(OTHER_GROUP, got.get(0).conversationGroupId());
        assertEquals(3, jdbc.calls.size(), "no WAITFOR (RECEIVE ...) once a prioritised group answered");
        assertEquals(TSql.priorityCandidates(SqlServerNames.queue("dbo.EchoServiceQueue")), jdbc.calls.get(0).sql);
        assertEquals(List.of("[dbo].[EchoServiceQueue]", Receiver.PRIORITY_CANDIDATES), jdbc.calls.get(0).params());
        assertEquals(TSql.receivePrioritisedGroup(SqlServerNames.queue("dbo.EchoServiceQueue")), jdbc.calls.get(1).sql);
        assertEquals(List.of(10, GROUP.toString()), jdbc.calls.get(1).params());
        assertEquals(List.of(10, OTHER_GROUP.toString()), jdbc.calls.get(2).params());
        assertEquals(Receiver.PRIORITISED_QUERY_TIMEOUT_SECONDS, jdbc.calls.get(1).queryTimeout,
                "the prioritised attempt never waits for a lock (LOCK_TIMEOUT 0), and the driver bounds it anyway");
    }

    /**
     * A reader with a redelivery delay, while its queue has a held group: no WAITFOR (RECEIVE ...), which could take
     * the held group, but the unheld groups tried one by one without waiting for a group lock; with nothing there, a
     * pause of at most a second instead of the WAITFOR.
     */
    @Test
    void aReaderThatSkipsHeldGroupsPicksAnUnheldGroupItself() {
        jdbc.rows(row("x", 1))
                .rows(row("conversation_group_id", OTHER_GROUP.toString()))
                .rows(message(OTHER_GROUP, 1));
        ReceiveRequest request = ReceiveRequest.from("dbo.EchoServiceQueue").top(10).timeout(Duration.ofSeconds(30));
        List<BrokerMessage> got = session.receive(request, false, true).messages();
        assertEquals(OTHER_GROUP, got.get(0).conversationGroupId());
        assertEquals(3, jdbc.calls.size());
        assertEquals(TSqlLedger.HAS_HOLDS, jdbc.calls.get(0).sql);
        assertEquals(List.of("dbo.EchoServiceQueue"), jdbc.calls.get(0).params());
        assertEquals(TSql.unheldCandidates(SqlServerNames.queue("dbo.EchoServiceQueue")), jdbc.calls.get(1).sql);
        assertEquals(List.of("dbo.EchoServiceQueue", Receiver.PRIORITY_CANDIDATES), jdbc.calls.get(1).params());
        assertEquals(TSql.receivePrioritisedGroup(SqlServerNames.queue("dbo.EchoServiceQueue")), jdbc.calls.get(2).sql);

        jdbc.calls.clear();
        jdbc.rows(row("x", 1));
        assertEquals(List.of(), session.receive(request, false, true).messages(), "only held groups have messages");
        assertEquals(List.of(TSqlLedger.HAS_HOLDS, TSql.unheldCandidates(SqlServerNames.queue("dbo.EchoServiceQueue")),
                TSql.PAUSE), jdbc.calls.stream().map(c -> c.sql).toList());
        assertEquals(List.of("00:00:01.000"), jdbc.calls.get(2).params());

        jdbc.calls.clear();
        session.receive(request, false, false).messages();
        assertEquals(List.of(TSql.receive(SqlServerNames.queue("dbo.EchoServiceQueue"), TSql.Filter.NONE, true)),
                jdbc.calls.stream().map(c -> c.sql).toList(), "a RECEIVE that does not skip held groups: as before");
    }

    /**
     * The driver's query timeout of a prioritised attempt runs until the first packet of its answer (mssql-jdbc's
     * TDSCommand.startResponse), so it can fire after the attempt's RECEIVE took messages, while its SELECT of them
     * runs: the attempt cannot be skipped as a locked group, its transaction must roll back.
     */
    @Test
    void aPrioritisedAttemptCancelledByItsQueryTimeoutFailsTheReceive() {
        jdbc.rows(row("conversation_group_id", GROUP.toString()), row("conversation_group_id", OTHER_GROUP.toString()))
                .timeout()
                .rows(message(OTHER_GROUP, 1));
        ReceiveCancelledException e = assertThrows(ReceiveCancelledException.class,
                () -> session.receive(ReceiveRequest.from("dbo.EchoServiceQueue").top(10)
                        .timeout(Duration.ofSeconds(30))));
        assertInstanceOf(java.sql.SQLTimeoutException.class, e.getCause());
        assertTrue(e.getMessage().contains("group " + GROUP), e.getMessage());
        assertEquals(2, jdbc.calls.size(), "no other group tried in a transaction that must roll back");
    }

    @Test
    void anUnfilteredReceiveSkipsThePriorityQueryWhileTheQueueHasNoPrioritisedGroup() {
        long[] now = {0};
        SqlServerSession reader = new SqlServerSession(signals, new GroupPresence(() -> now[0]),
                jdbc.connection());
        ReceiveRequest request = ReceiveRequest.from("EchoServiceQueue").top(5);
        reader.receive(request);
        assertEquals(2, jdbc.calls.size(), "the first RECEIVE asks for prioritised groups, finds none, receives");
        reader.receive(request);
        reader.receive(request);
        assertEquals(4, jdbc.calls.size(), "then one round trip per RECEIVE");
        assertEquals(TSql.receive(SqlServerNames.queue("EchoServiceQueue"), TSql.Filter.NONE, false),
                jdbc.calls.get(3).sql);

        now[0] += GroupPresence.RECHECK_NANOS;
        reader.receive(request);
        assertEquals(6, jdbc.calls.size(), "asked again after the recheck interval (a priority set elsewhere)");
        assertEquals(TSql.priorityCandidates(SqlServerNames.queue("EchoServiceQueue")), jdbc.calls.get(4).sql);
        reader.receive(request);
        assertEquals(7, jdbc.calls.size());

        jdbc.rows(row("queue_schema", "dbo", "queue_name", "EchoServiceQueue"));
        session.setPriority(GROUP, 9); // another session of this JVM
        reader.receive(request);
        assertEquals(10, jdbc.calls.size(), "a priority set through this JVM is looked for at once");
        assertEquals(TSql.priorityCandidates(SqlServerNames.queue("EchoServiceQueue")), jdbc.calls.get(8).sql);
    }

    @Test
    void aCommittedPriorityIsLookedForAgain() {
        long[] now = {0};
        SqlServerSession reader = new SqlServerSession(signals, new GroupPresence(() -> now[0]),
                jdbc.connection());
        ReceiveRequest request = ReceiveRequest.from("EchoServiceQueue");
        jdbc.rows(row("queue_schema", "dbo", "queue_name", "EchoServiceQueue"));
        session.setPriority(GROUP, 9);
        reader.receive(request); // asks while the priority is not committed yet: READPAST finds none
        assertEquals(3, jdbc.calls.size());
        session.afterCompletion(true);
        reader.receive(request);
        assertEquals(5, jdbc.calls.size(), "the commit makes readers ask again");
    }

    @Test
    void withPrioritiesOffAnUnfilteredReceiveIsOneRoundTrip() {
        jdbc.rows(message(GROUP, 1));
        List<BrokerMessage> got = session.receive(ReceiveRequest.from("EchoServiceQueue").top(5), false, false)
                .messages();
        assertEquals(1, got.size());
        assertEquals(1, jdbc.calls.size());
        assertEquals(TSql.receive(SqlServerNames.queue("EchoServiceQueue"), TSql.Filter.NONE, false),
                jdbc.calls.get(0).sql);
    }

    /**
     * The RECEIVE's batch reads the failed deliveries recorded for the messages it took (SELECT_RECEIVED joins the
     * ledger), in the same round trip: a reader then knows the count another node recorded a moment before, whatever
     * its own cache says.
     */
    @Test
    void aReceiveReadsTheFailedDeliveriesRecordedForItsMessages() {
        Map<String, Object> failedThrice = new java.util.LinkedHashMap<>(message(GROUP, 1));
        failedThrice.put("recorded_attempts", 3);
        jdbc.rows(failedThrice, message(GROUP, 2));
        Received got = session.receive(ReceiveRequest.from("EchoServiceQueue").top(5), false, false);
        assertEquals(2, got.messages().size());
        assertEquals(1, jdbc.calls.size(), "no statement besides the RECEIVE's batch");
        assertEquals(Optional.of(Map.of(HANDLE + "/1", 3)), got.recordedAttempts());
        jdbc.rows();
        Received none = session.receive(ReceiveRequest.from("EchoServiceQueue").top(5), false, false);
        assertEquals(Optional.of(Map.of()), none.recordedAttempts(), "an empty RECEIVE read none");
        assertEquals(Optional.of(Map.of(HANDLE + "/1", 3)), got.recordedAttempts(), "the first RECEIVE's, as it was");
    }

    /**
     * The RECEIVE's batch says whether a message's group has a priority, however it got it (here while the reader
     * looked at no priorities, as one waiting in WAITFOR (RECEIVE ...) does): the reader then drops it once drained.
     */
    @Test
    void aReceiveSaysWhetherItTookAGroupWithAPriority() {
        Map<String, Object> prioritised = new java.util.LinkedHashMap<>(message(GROUP, 1));
        prioritised.put("has_priority", true);
        jdbc.rows(prioritised);
        assertTrue(session.receive(ReceiveRequest.from("EchoServiceQueue").top(5), false, false)
                .mayHaveDrainedPrioritised(), "a group whose priority no scan of this reader saw");
        jdbc.rows(message(GROUP, 2));
        assertFalse(session.receive(ReceiveRequest.from("EchoServiceQueue").top(5), false, false)
                .mayHaveDrainedPrioritised(), "a group without a priority");
    }

    @Test
    void aFilteredReceiveOfAGroupAnotherTransactionHoldsFindsNothing() {
        // the caller's SET LOCK_TIMEOUT ran out (error 1222): the group is another reader's, as on the portable backends
        jdbc.error(1222, "Lock request time out period exceeded.");
        assertEquals(List.of(), session.receive(ReceiveRequest.from("EchoServiceQueue").conversationGroup(GROUP)));
        jdbc.error(1222, "Lock request time out period exceeded.");
        assertEquals(List.of(), session.receive(ReceiveRequest.from("EchoServiceQueue")
                .conversation(Conversation.ofHandle(HANDLE)).timeout(Duration.ofSeconds(1))));
        jdbc.rows().error(1222, "Lock request time out period exceeded.");
        assertThrows(BrokerException.class, () -> session.receive(ReceiveRequest.from("EchoServiceQueue")),
                "an unfiltered RECEIVE skips locked groups itself: a lock timeout there is a real failure");
    }

    @Test
    void withoutPrioritisedGroupsSqlServerChoosesAndWaits() {
        jdbc.rows().rows(message(GROUP, 1), message(GROUP, 2));
        List<BrokerMessage> got = session.receive(ReceiveRequest.from("EchoServiceQueue").top(5)
                .timeout(Duration.ofMillis(2500)));
        assertEquals(2, got.size());
        BrokerMessage m = got.get(0);
        assertEquals(HANDLE, m.conversationHandle());
        assertEquals(CONVERSATION, m.conversationId());
        assertEquals(GROUP, m.conversationGroupId());
        assertEquals(7, m.priority());
        assertEquals(101, m.queuingOrder());
        assertEquals("EchoRequest", m.messageTypeName());
        assertEquals("EchoService", m.serviceName());
        assertEquals("EchoContract", m.serviceContractName());
        assertEquals("hello", m.bodyAsText());
        assertEquals(OffsetDateTime.of(2025, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC).toInstant(), m.enqueueTime());
        FakeJdbc.Call waitFor = jdbc.calls.get(1);
        assertEquals(TSql.receive(SqlServerNames.queue("EchoServiceQueue"), TSql.Filter.NONE, true), waitFor.sql);
        assertEquals(List.of(5, 2500), waitFor.params());
        assertEquals(3 + Batches.QUERY_TIMEOUT_MARGIN_SECONDS, waitFor.queryTimeout,
                "the JDBC timeout outlasts the WAITFOR");
        assertThrows(UnsupportedOperationException.class, () -> got.add(m));
    }

    /**
     * A WAITFOR (RECEIVE) cannot be woken by a signal: wake() cancels the statement, the RECEIVE returns empty as if
     * its time had run out, and the next RECEIVE waits as usual (unlike cancel(), which ends every later one).
     */
    @Test
    void wakeCancelsAWaitingReceiveWhichReturnsEmptyAndTheNextOneWaitsAgain() throws Exception {
        jdbc.waitsUntilCancelled().rows(message(GROUP, 1));
        ReceiveRequest waitLong = ReceiveRequest.from("EchoServiceQueue").conversation(Conversation.ofHandle(HANDLE))
                .timeout(Duration.ofSeconds(600));
        java.util.concurrent.CompletableFuture<List<BrokerMessage>> first =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> session.receive(waitLong));
        assertTrue(jdbc.waiting.await(10, java.util.concurrent.TimeUnit.SECONDS), "the WAITFOR started");

        session.wake();

        assertEquals(List.of(), first.get(10, java.util.concurrent.TimeUnit.SECONDS), "woken: empty");
        assertEquals(1, session.receive(waitLong).size(), "the next RECEIVE runs and waits as usual");
        String waitFor = TSql.receive(SqlServerNames.queue("EchoServiceQueue"), TSql.Filter.CONVERSATION, true);
        assertEquals(waitFor, jdbc.calls.get(0).sql);
        assertEquals(waitFor, jdbc.calls.get(1).sql);
        assertTrue(jdbc.allResponsesUsed());
    }

    /**
     * A wake that reaches the WAITFOR (RECEIVE ...) while its result is read: the RECEIVE has taken the messages, in
     * the reader's transaction, and the caller did not get them all. Returning empty would let the turn commit them
     * away; the RECEIVE fails instead, so that the transaction rolls back and puts them back on the queue.
     */
    @Test
    void aWakeWhileTheReceivedRowsAreReadFailsTheReceiveSoThatItsTransactionRollsBack() {
        ReceiveRequest waitLong = ReceiveRequest.from("EchoServiceQueue").conversation(Conversation.ofHandle(HANDLE))
                .timeout(Duration.ofSeconds(600));
        jdbc.rowsThenCancelled(session::wake, message(GROUP, 1), message(GROUP, 2)).rows(message(GROUP, 3));

        ReceiveCancelledException e = assertThrows(ReceiveCancelledException.class, () -> session.receive(waitLong));

        assertInstanceOf(SQLException.class, e.getCause());
        assertTrue(e.getMessage().startsWith("RECEIVE from queue [EchoServiceQueue]"), e.getMessage());
        assertTrue(e.getMessage().contains("roll back"), e.getMessage());
        assertEquals(1, session.receive(waitLong).size(), "the next RECEIVE runs as usual");
        assertTrue(jdbc.allResponsesUsed());
    }

    /** The same race with a stop (undeploy, MaxReaders lowered): the RECEIVE fails, and later ones return at once. */
    @Test
    void aStopWhileTheReceivedRowsAreReadFailsTheReceive() {
        jdbc.rowsThenCancelled(session::cancel, message(GROUP, 1));
        ReceiveRequest request = ReceiveRequest.from("EchoServiceQueue").timeout(ReceiveRequest.FOREVER);

        assertThrows(ReceiveCancelledException.class, () -> session.receive(request, false, false).messages());

        assertEquals(List.of(), session.receive(request, false, false).messages());
        assertEquals(1, jdbc.calls.size(), "a stopped session runs no RECEIVE");
    }

    /**
     * A stop (undeploy, MaxReaders lowered) that comes while the reader asks which prioritised groups have messages,
     * before its WAITFOR started: the WAITFOR is not started, so the reader does not wait out its whole timeout.
     */
    @Test
    void aStopBeforeTheWaitforStartsEndsTheReceiveWithoutIt() {
        jdbc.rowsDespiteCancel(session::cancel).rows(message(GROUP, 1));

        assertEquals(List.of(), session.receive(ReceiveRequest.from("EchoServiceQueue")
                .timeout(ReceiveRequest.FOREVER)));
        assertEquals(1, jdbc.calls.size(), "no WAITFOR after the stop: " + jdbc.calls);
    }

    /** A stop that ends a RECEIVE while it waits, before it took anything: empty, as a wake. */
    @Test
    void aStopWhileWaitingEndsTheReceiveEmpty() throws Exception {
        jdbc.waitsUntilCancelled();
        java.util.concurrent.CompletableFuture<List<BrokerMessage>> waiting =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> session.receive(
                        ReceiveRequest.from("EchoServiceQueue").timeout(ReceiveRequest.FOREVER), false, false)
                        .messages());
        assertTrue(jdbc.waiting.await(10, java.util.concurrent.TimeUnit.SECONDS), "the WAITFOR started");

        session.cancel();

        assertEquals(List.of(), waiting.get(10, java.util.concurrent.TimeUnit.SECONDS));
    }

    /**
     * A wake that reached a RECEIVE just as it finished (the statement was still published, its rows complete) must
     * not mark the session: the next RECEIVE's own failure is thrown, not taken for a woken wait.
     */
    @Test
    void aWakeAfterTheReceiveFinishedDoesNotHideTheNextFailure() {
        ReceiveRequest waitLong = ReceiveRequest.from("EchoServiceQueue").conversation(Conversation.ofHandle(HANDLE))
                .timeout(Duration.ofSeconds(600));
        jdbc.rowsDespiteCancel(session::wake, message(GROUP, 1))
                .error(1205, "Transaction (Process ID 53) was deadlocked on lock resources with another process");

        assertEquals(1, session.receive(waitLong).size());

        BrokerException e = assertThrows(BrokerException.class, () -> session.receive(waitLong));
        assertTrue(e.getMessage().contains("SQL Server error 1205"), e.getMessage());
    }

    /** The same for GET CONVERSATION GROUP. */
    @Test
    void aWakeAfterGetConversationGroupFinishedDoesNotHideTheNextFailure() {
        jdbc.rowsDespiteCancel(session::wake, row("conversation_group_id", GROUP.toString()))
                .error(1205, "Transaction (Process ID 53) was deadlocked on lock resources with another process");

        assertEquals(Optional.of(GROUP), session.getConversationGroup("EchoServiceQueue", Duration.ofSeconds(60)));

        assertThrows(BrokerException.class,
                () -> session.getConversationGroup("EchoServiceQueue", Duration.ofSeconds(60)));
    }

    /**
     * GET CONVERSATION GROUP only locks a group: woken even while its result is read, it returns empty, and the
     * lock ends with the transaction.
     */
    @Test
    void aWakeWhileGetConversationGroupIsReadReturnsEmpty() {
        jdbc.rowsThenCancelled(session::wake, row("conversation_group_id", GROUP.toString()));
        assertEquals(Optional.empty(), session.getConversationGroup("EchoServiceQueue", Duration.ofSeconds(60)));
    }

    /** A reader that skips held groups and found none free pauses; a wake ends the pause, empty. */
    @Test
    void aWakeDuringThePauseOfAReaderThatFoundOnlyHeldGroupsReturnsEmpty() throws Exception {
        jdbc.rows(row("x", 1)).rows().waitsUntilCancelled();
        java.util.concurrent.CompletableFuture<List<BrokerMessage>> paused =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> session.receive(
                        ReceiveRequest.from("EchoServiceQueue").timeout(Duration.ofSeconds(30)), false, true)
                        .messages());
        assertTrue(jdbc.waiting.await(10, java.util.concurrent.TimeUnit.SECONDS), "the pause started");

        session.wake();

        assertEquals(List.of(), paused.get(10, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(TSql.PAUSE, jdbc.calls.get(2).sql);
    }

    @Test
    void waitingForeverIsTimeoutMinusOneAndNoQueryTimeout() {
        jdbc.rows().rows();
        session.receive(ReceiveRequest.from("EchoServiceQueue").timeout(ReceiveRequest.FOREVER));
        assertEquals(List.of(1, -1), jdbc.calls.get(1).params());
        assertEquals(0, jdbc.calls.get(1).queryTimeout);
    }

    @Test
    void aZeroTimeoutReceivesWithoutWaitFor() {
        jdbc.rows().rows();
        assertEquals(List.of(), session.receive(ReceiveRequest.from("EchoServiceQueue")));
        assertEquals(TSql.receive(SqlServerNames.queue("EchoServiceQueue"), TSql.Filter.NONE, false),
                jdbc.calls.get(1).sql);
        assertEquals(List.of(1), jdbc.calls.get(1).params());
    }

    @Test
    void aFilteredReceiveGoesStraightToSqlServer() {
        jdbc.rows(message(GROUP, 1));
        session.receive(ReceiveRequest.from("EchoServiceQueue").conversation(Conversation.ofHandle(HANDLE)));
        assertEquals(1, jdbc.calls.size());
        assertEquals(TSql.receive(SqlServerNames.queue("EchoServiceQueue"), TSql.Filter.CONVERSATION, false),
                jdbc.calls.get(0).sql);
        assertEquals(List.of(1, HANDLE.toString()), jdbc.calls.get(0).params());
    }

    /**
     * What a reader sends before a conversation of its delivery ends (BatchSorter.takeBeforeEnding): one RECEIVE of
     * that conversation without WAITFOR (its transaction already holds the group), whose rows come back with their
     * types and bodies, so that a priority request among them is dead-lettered before END CONVERSATION removes it.
     */
    @Test
    void theRestOfAConversationBeforeItsEndIsOneReceiveWithoutWaitFor() {
        Map<String, Object> request = new java.util.LinkedHashMap<>(message(GROUP, 2));
        request.put("message_type_name", "SetPriority");
        request.put("message_body", "<priority>abc</priority>".getBytes(StandardCharsets.UTF_8));
        jdbc.rows(request, message(GROUP, 3));
        List<BrokerMessage> rest = session.receive(ReceiveRequest.from("EchoServiceQueue")
                .conversation(Conversation.ofHandle(HANDLE)).top(100).timeout(Duration.ZERO));
        assertEquals(1, jdbc.calls.size(), "one round trip");
        assertEquals(TSql.receive(SqlServerNames.queue("EchoServiceQueue"), TSql.Filter.CONVERSATION, false),
                jdbc.calls.get(0).sql);
        assertFalse(jdbc.calls.get(0).sql.contains("WAITFOR"), jdbc.calls.get(0).sql);
        assertEquals(List.of(100, HANDLE.toString()), jdbc.calls.get(0).params());
        assertEquals(List.of("SetPriority", "EchoRequest"), rest.stream().map(BrokerMessage::messageTypeName).toList());
        assertEquals("<priority>abc</priority>", rest.get(0).bodyAsText());
        assertEquals(HANDLE, rest.get(0).conversationHandle());
        assertEquals(CONVERSATION, rest.get(0).conversationId());
    }

    @Test
    void receiveOnADisabledQueueIsQueueDisabled() {
        jdbc.rows().error(9617, "The service queue \"EchoServiceQueue\" is currently disabled.");
        QueueDisabledException e = assertThrows(QueueDisabledException.class,
                () -> session.receive(ReceiveRequest.from("EchoServiceQueue").timeout(Duration.ofSeconds(1))));
        assertEquals("EchoServiceQueue", e.queue());
        assertInstanceOf(SQLException.class, e.getCause());
    }

    @Test
    void anInvalidQueueNameIsRefusedBeforeAnySql() {
        assertThrows(IllegalArgumentException.class,
                () -> session.receive(ReceiveRequest.from("q]; DROP TABLE x; --")));
        assertThrows(IllegalArgumentException.class, () -> session.getConversationGroup("a.b.c", Duration.ZERO));
        assertEquals(0, jdbc.calls.size());
    }

    @Test
    void getConversationGroupReturnsTheLockedGroupOrNothing() {
        jdbc.rows(row("conversation_group_id", GROUP.toString())).rows(row("conversation_group_id", null));
        assertEquals(Optional.of(GROUP), session.getConversationGroup("EchoServiceQueue", Duration.ofSeconds(1)));
        assertEquals(Optional.empty(), session.getConversationGroup("EchoServiceQueue", Duration.ZERO));
        assertEquals(List.of(1000), jdbc.calls.get(0).params());
        assertEquals(List.of(), jdbc.calls.get(1).params());
    }

    @Test
    void setPriorityNeedsAnExistingGroup() {
        jdbc.rows(row("queue_schema", "dbo", "queue_name", "EchoServiceQueue"))
                .rows(row("queue_schema", null, "queue_name", null));
        session.setPriority(GROUP, 255);
        assertEquals(TSql.SET_PRIORITY, jdbc.calls.get(0).sql);
        assertEquals(List.of(GROUP.toString(), 255), jdbc.calls.get(0).params());
        BrokerException e = assertThrows(BrokerException.class, () -> session.setPriority(OTHER_GROUP, 1));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> session.setPriority(GROUP, 256));
        assertThrows(IllegalArgumentException.class, () -> session.setPriority(GROUP, -1));
        assertEquals(2, jdbc.calls.size());
        session.clearPriority(GROUP);
        assertEquals(TSql.CLEAR_PRIORITY, jdbc.calls.get(2).sql);
        assertEquals(List.of(GROUP.toString()), jdbc.calls.get(2).params());
        assertTrue(jdbc.allResponsesUsed());
    }

    @Test
    void otherErrorsAreBrokerExceptionsNamingTheVerb() {
        jdbc.error(8436, "The conversation group \"" + GROUP + "\" is not found.");
        BrokerException e = assertThrows(BrokerException.class, () -> session.moveConversation(HANDLE, GROUP));
        assertSame(BrokerException.class, e.getClass());
        assertTrue(e.getMessage().startsWith("MOVE CONVERSATION " + HANDLE + " to group " + GROUP), e.getMessage());
    }

    private static Map<String, Object> message(UUID group, long sequence) {
        return row("priority", 7, "queuing_order", 100L + sequence, "conversation_group_id", group.toString(),
                "conversation_handle", HANDLE.toString(), "message_sequence_number", sequence,
                "service_name", "EchoService", "service_contract_name", "EchoContract",
                "message_type_name", "EchoRequest", "message_body", "hello".getBytes(StandardCharsets.UTF_8),
                "message_enqueue_time", OffsetDateTime.of(2025, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC),
                "conversation_id", CONVERSATION.toString(), "recorded_attempts", null, "has_priority", false,
                "trace_context", null);
    }
}
