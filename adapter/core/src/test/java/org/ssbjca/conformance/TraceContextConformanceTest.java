package org.ssbjca.conformance;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.conformance.DialogConformanceTest.begin;
import static org.ssbjca.conformance.DialogConformanceTest.bytes;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Scope;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.sqlserver.SqlServerBroker;
import org.ssbjca.docs.Docs;

/**
 * The W3C trace context a SEND records from the sending thread's current span, received with the message
 * (docs/guide/tracing.md): every way a SEND writes its message (with BEGIN DIALOG in one transaction, a first SEND of
 * a begun dialog, a later one, a reply), and none when the sender had no current span. On SQL Server also the T-SQL
 * senders' convention ({@code ssb.send_traced}, its recipe as written), the row of each message numbered as SQL
 * Server numbers the message (both directions, around a conversation timer), given back by a rolled-back RECEIVE, and
 * forgotten by an END CONVERSATION WITH CLEANUP.
 */
class TraceContextConformanceTest {

    static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final String SPAN = "00f067aa0ba902b7";
    static final String PARENT = "00-" + TRACE + "-" + SPAN + "-01";

    @BackendTest
    void aSendWithACurrentSpanCarriesItsContextAndOneWithoutCarriesNone(Db db) {
        Db.Objects o = db.objects();
        Conversation first = inSpan(TraceState.getDefault(), () -> db.tx(s -> {
            Conversation c = s.beginDialog(o.initiatorService, o.targetService, o.contract, DialogOptions.defaults());
            s.send(c.handle(), o.request, bytes("with its dialog"));
            return c;
        }));
        Conversation begun = begin(db, o);
        inSpan(TraceState.getDefault(), () -> db.run(s -> s.send(begun.handle(), o.request, bytes("first send"))));
        inSpan(TraceState.getDefault(), () -> db.run(s -> s.send(begun.handle(), o.request, bytes("later send"))));
        db.run(s -> s.send(begun.handle(), o.request, bytes("no span")));

        List<BrokerMessage> got = receiveAll(db, o.targetQueue, 4);
        Map<String, Optional<String>> byBody = new TreeMap<>();
        got.forEach(m -> byBody.put(new String(m.body(), UTF_8), m.traceContext()));
        assertEquals(Map.of("with its dialog", Optional.of(PARENT), "first send", Optional.of(PARENT),
                "later send", Optional.of(PARENT), "no span", Optional.empty()), byBody);

        BrokerMessage toAnswer = got.stream().filter(m -> m.conversationId().equals(first.conversationId()))
                .findFirst().orElseThrow();
        inSpan(TraceState.builder().put("vendor", "x1").build(),
                () -> db.run(s -> s.send(toAnswer.conversationHandle(), o.reply, bytes("reply"))));
        List<BrokerMessage> replies = receiveAll(db, o.initiatorQueue, 1);
        assertEquals(Optional.of(PARENT + " vendor=x1"), replies.get(0).traceContext(), "a reply, with tracestate");
        assertEquals(first.conversationId(), replies.get(0).conversationId());
    }

    /**
     * Each message of a conversation, in both directions, after a conversation timer and a message without a
     * context, carries its own sender's span: a row keyed by another number than the one SQL Server gave the message
     * would hand a message its neighbour's span. No row is left once all are received.
     */
    @BackendTest
    void everyMessageOfBothDirectionsCarriesItsOwnSendersSpan(Db db) {
        sqlServerOnly(db);
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        db.run(s -> s.beginConversationTimer(c.handle(), java.time.Duration.ofHours(1)));
        inSpan(span(1), () -> db.run(s -> s.send(c.handle(), o.request, bytes("1"))));
        db.run(s -> s.send(c.handle(), o.request, bytes("untraced")));
        inSpan(span(3), () -> db.run(s -> s.send(c.handle(), o.request, bytes("3"))));
        Map<String, Optional<String>> byBody = new TreeMap<>();
        List<BrokerMessage> got = receiveAll(db, o.targetQueue, 3);
        got.forEach(m -> byBody.put(new String(m.body(), UTF_8), m.traceContext()));
        assertEquals(Map.of("1", Optional.of(parent(1)), "untraced", Optional.empty(), "3", Optional.of(parent(3))),
                byBody);
        UUID target = got.get(0).conversationHandle();
        inSpan(span(4), () -> db.run(s -> s.send(target, o.reply, bytes("4"))));
        inSpan(span(5), () -> db.run(s -> s.send(target, o.reply, bytes("5"))));
        Map<String, Optional<String>> replies = new TreeMap<>();
        receiveAll(db, o.initiatorQueue, 2).forEach(m -> replies.put(new String(m.body(), UTF_8), m.traceContext()));
        assertEquals(Map.of("4", Optional.of(parent(4)), "5", Optional.of(parent(5))), replies);
        assertEquals(0, traceRows(db, c.conversationId()), "every row taken with its message");
    }

    /** A RECEIVE that rolls back gives back the message's row with the message. */
    @BackendTest
    void aRolledBackReceiveGivesTheContextBack(Db db) {
        sqlServerOnly(db);
        Db.Objects o = db.objects();
        Conversation c = oneTracedSend(db, o);
        try (Db.Tx tx = db.begin()) {
            List<BrokerMessage> first = tx.session().receive(ReceiveRequest.from(o.targetQueue)
                    .timeout(java.time.Duration.ofSeconds(30)));
            assertEquals(Optional.of(parent(1)), first.get(0).traceContext());
            tx.rollback();
        }
        assertEquals(Optional.of(parent(1)), receiveAll(db, o.targetQueue, 1).get(0).traceContext());
    }

    /** Ending this side WITH CLEANUP drops its queued messages, and the adapter their rows. */
    @BackendTest
    void endingWithCleanupForgetsTheRowsOfTheMessagesItDrops(Db db) {
        sqlServerOnly(db);
        Db.Objects o = db.objects();
        Conversation c = oneTracedSend(db, o);
        assertEquals(1, traceRows(db, c.conversationId()));
        UUID target = UUID.fromString(query(db, "SELECT CAST(conversation_handle AS CHAR(36))"
                + " FROM sys.conversation_endpoints WHERE conversation_id = ? AND is_initiator = 0",
                c.conversationId(), rs -> rs.getString(1)));
        db.run(s -> s.endConversationWithCleanup(target));
        assertEquals(0, traceRows(db, c.conversationId()));
    }

    /**
     * docs/guide/tracing.md's T-SQL senders' recipe, run as written (the message type the guide names replaced by this
     * test's), starts the trace the MDB continues; the guide's purge statement then runs too.
     */
    @BackendTest
    void aTSqlSenderFollowingTheGuidesRecipeStartsTheTrace(Db db) throws java.sql.SQLException {
        sqlServerOnly(db);
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        List<String> recipes = Docs.codeBlocks("docs/guide/tracing.md", "## T-SQL senders", "sql");
        String recipe = recipes.get(0);
        assertTrue(recipe.contains("N'//shop/Order'"), recipe);
        try (Db.Tx tx = db.begin(); java.sql.PreparedStatement ps = tx.connection().prepareStatement(
                "DECLARE @handle UNIQUEIDENTIFIER = ?;\nDECLARE @body VARBINARY(MAX) = ?;\n"
                        + recipe.replace("N'//shop/Order'", "N'" + o.request.replace("'", "''") + "'"))) {
            ps.setString(1, c.handle().toString());
            ps.setBytes(2, bytes("from a trigger"));
            ps.execute();
            try (java.sql.Statement purge = tx.connection().createStatement()) {
                purge.execute(recipes.get(1));
            }
            tx.commit();
        }
        BrokerMessage m = receiveAll(db, o.targetQueue, 1).get(0);
        assertEquals("from a trigger", new String(m.body(), UTF_8));
        assertEquals(Optional.of(PARENT), m.traceContext(), "the recipe's traceparent");
    }

    /** @return a new conversation with one message sent in span 1 */
    private static Conversation oneTracedSend(Db db, Db.Objects o) {
        Conversation c = begin(db, o);
        inSpan(span(1), () -> db.run(s -> s.send(c.handle(), o.request, bytes("traced"))));
        return c;
    }

    private static void sqlServerOnly(Db db) {
        Assumptions.assumeTrue(db.broker() instanceof SqlServerBroker, "ssb.message_trace is SQL Server's");
    }

    private static long traceRows(Db db, UUID conversationId) {
        return query(db, "SELECT COUNT_BIG(*) FROM ssb.message_trace WHERE conversation_id = ?", conversationId,
                rs -> rs.getLong(1));
    }

    /** @return the first row's value of a query with one parameter, a conversation id */
    private static <T> T query(Db db, String sql, UUID conversationId, Column<T> column) {
        try (Db.Tx tx = db.begin(); java.sql.PreparedStatement ps = tx.connection().prepareStatement(sql)) {
            ps.setString(1, conversationId.toString());
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), sql);
                return column.read(rs);
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private interface Column<T> {
        T read(java.sql.ResultSet rs) throws java.sql.SQLException;
    }

    /** @return a span id of its own for message {@code n} */
    private static String span(int n) {
        return String.format("%016x", 0x00f067aa0ba90000L + n);
    }

    private static String parent(int n) {
        return "00-" + TRACE + "-" + span(n) + "-01";
    }

    private static <T> T inSpan(String spanId, TraceState state, Supplier<T> work) {
        SpanContext context = SpanContext.create(TRACE, spanId, TraceFlags.getSampled(), state);
        try (Scope ignored = Span.wrap(context).makeCurrent()) {
            return work.get();
        }
    }

    private static void inSpan(String spanId, TraceState state, Runnable work) {
        inSpan(spanId, state, () -> {
            work.run();
            return null;
        });
    }

    private static <T> T inSpan(TraceState state, Supplier<T> work) {
        return inSpan(SPAN, state, work);
    }

    private static void inSpan(TraceState state, Runnable work) {
        inSpan(SPAN, state, work);
    }

    private static void inSpan(String spanId, Runnable work) {
        inSpan(spanId, TraceState.getDefault(), work);
    }

    private static List<BrokerMessage> receiveAll(Db db, String queue, int count) {
        List<BrokerMessage> got = new java.util.ArrayList<>();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> {
            got.addAll(db.tx(s -> s.receive(ReceiveRequest.from(queue).top(10))));
            return got.size() >= count;
        });
        return got;
    }
}
