package org.ssbjca.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Fills the benchmark's queue with set-based inserts into the portable schema: the rows are those that BEGIN DIALOG
 * and SEND make (both endpoints in state CO, the initiator's send_sequence counted up, a conversation group per
 * side with a round-robin turn, messages numbered from 0 in each conversation), written by a handful of statements
 * instead of one SEND at a time. {@link #shapeOfConversations} lets the benchmark compare them with rows SEND made.
 */
final class SsbLoader {

    static final String QUEUE = "BenchQueue";
    static final String CLIENT_QUEUE = "BenchClientQueue";
    /** The adapter's mark of a group with no message (PortableSql.PARKED, package-private there). */
    private static final long PARKED = 1L << 62;

    private final BenchPostgres pg;

    SsbLoader(BenchPostgres pg) {
        this.pg = pg;
    }

    /** Creates the portable schema (the adapter's own install script) and the benchmark's broker objects. */
    void declare(Path sqlDir) throws SQLException, IOException {
        String install = Files.readString(sqlDir.resolve("portable").resolve("install.sql"));
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute(install);
            s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            s.execute("INSERT INTO ssb.message_type VALUES ('BenchRequest', 'NONE') ON CONFLICT DO NOTHING");
            s.execute("INSERT INTO ssb.message_type VALUES ('BenchReply', 'NONE') ON CONFLICT DO NOTHING");
            s.execute("INSERT INTO ssb.contract VALUES ('BenchContract') ON CONFLICT DO NOTHING");
            s.execute("INSERT INTO ssb.contract_message_type VALUES ('BenchContract', 'BenchRequest', 'INITIATOR'),"
                    + " ('BenchContract', 'BenchReply', 'TARGET') ON CONFLICT DO NOTHING");
            s.execute("INSERT INTO ssb.service_queue (queue_name) VALUES ('" + CLIENT_QUEUE + "'), ('" + QUEUE + "')"
                    + " ON CONFLICT DO NOTHING");
            s.execute("INSERT INTO ssb.service VALUES ('BenchClient', '" + CLIENT_QUEUE + "'),"
                    + " ('BenchService', '" + QUEUE + "') ON CONFLICT DO NOTHING");
            s.execute("INSERT INTO ssb.service_contract VALUES ('BenchService', 'BenchContract')"
                    + " ON CONFLICT DO NOTHING");
        }
    }

    /**
     * Begins {@code conversations} dialogs from BenchClient to BenchService and SENDs {@code perConversation}
     * 256-byte (or {@code size}) BenchRequest messages on each, interleaved across conversations the way concurrent
     * senders would put them in the queue. One transaction.
     */
    void load(int conversations, int perConversation, int size) throws SQLException {
        load(conversations, perConversation, size, null);
    }

    /**
     * As {@link #load(int, int, int)}; each message carries {@code traceContext} ({@code ssb.message.trace_context},
     * as a traced SEND writes it), or none when null.
     */
    void load(int conversations, int perConversation, int size, String traceContext) throws SQLException {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.execute("CREATE TEMP TABLE bench_dialog ON COMMIT DROP AS SELECT i,"
                    + " gen_random_uuid() AS initiator, gen_random_uuid() AS target, gen_random_uuid() AS id,"
                    + " gen_random_uuid() AS initiator_group, gen_random_uuid() AS target_group"
                    + " FROM generate_series(0, " + (conversations - 1) + ") i");
            // BEGIN DIALOG: the initiator's group and endpoint; the first SEND: the target's group and endpoint.
            // A group with no message is parked as the adapter leaves it (BEGIN DIALOG's initiator group; a target
            // group whose messages were all received): its turn plus 2^62 (PortableSql.PARKED).
            s.execute("INSERT INTO ssb.conversation_group (conversation_group_id, queue_name, turn)"
                    + " SELECT initiator_group, '" + CLIENT_QUEUE + "', nextval('ssb.turn_seq') + " + PARKED
                    + " FROM bench_dialog ORDER BY i");
            s.execute("INSERT INTO ssb.conversation_group (conversation_group_id, queue_name, turn)"
                    + " SELECT target_group, '" + QUEUE + "', nextval('ssb.turn_seq')"
                    + (perConversation == 0 ? " + " + PARKED : "") + " FROM bench_dialog ORDER BY i");
            s.execute("INSERT INTO ssb.conversation_endpoint (conversation_handle, conversation_id, is_initiator,"
                    + " conversation_group_id, service_name, far_service, service_contract_name, state,"
                    + " send_sequence, lifetime_expires_at, created_at)"
                    + " SELECT initiator, id, TRUE, initiator_group, 'BenchClient', 'BenchService', 'BenchContract',"
                    + " 'CO', " + perConversation + ", NULL::timestamptz, now() FROM bench_dialog"
                    + " UNION ALL"
                    + " SELECT target, id, FALSE, target_group, 'BenchService', 'BenchClient', 'BenchContract',"
                    + " 'CO', 0, NULL::timestamptz, now() FROM bench_dialog");
            // SEND: message k of every conversation, then k + 1; bodies "<number>;xxx..." of exactly size bytes.
            s.execute("INSERT INTO ssb.message (queue_name, conversation_group_id, conversation_handle,"
                    + " message_sequence_number, message_type_name, message_body, enqueued_at, trace_context)"
                    + " SELECT '" + QUEUE + "', d.target_group, d.target, k, 'BenchRequest',"
                    + " convert_to(rpad((k * " + conversations + " + d.i)::text || ';', " + size + ", 'x'), 'UTF8'),"
                    + " now(), " + (traceContext == null ? "NULL" : "'" + traceContext + "'")
                    + " FROM generate_series(0, " + (perConversation - 1) + ") k CROSS JOIN bench_dialog d"
                    + " ORDER BY k, d.i");
            c.commit();
            c.setAutoCommit(true);
            // as a DBA would after a bulk load; otherwise autovacuum visits the new rows during the measurement
            s.execute("VACUUM ANALYZE ssb.message");
            s.execute("VACUUM ANALYZE ssb.conversation_group");
            s.execute("VACUUM ANALYZE ssb.conversation_endpoint");
            s.execute("CHECKPOINT");
        }
    }

    /** Removes every conversation and message (between phases, with no consumer deployed). */
    /** The table queue phase's work table (seed 004's shape: a key, a body, rows deleted when taken). */
    static final String WORK_TABLE = "bench_work";

    /** Creates the work table of the table queue phase (empty). */
    void declareWorkTable() throws SQLException {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + WORK_TABLE + " (id BIGINT GENERATED ALWAYS AS IDENTITY"
                    + " PRIMARY KEY,"
                    + " body BYTEA NOT NULL)");
            s.execute("TRUNCATE " + WORK_TABLE);
            s.execute("VACUUM ANALYZE " + WORK_TABLE);
        }
    }

    /** Inserts {@code rows} rows of {@code size}-byte bodies ("<number>;xxx...") into the work table, one statement. */
    void loadWorkTable(int rows, int size) throws SQLException {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO " + WORK_TABLE + " (body) SELECT convert_to(rpad(i || ';', " + size + ", 'x'),"
                    + " 'UTF8') FROM generate_series(0, " + (rows - 1) + ") i");
        }
    }

    /** @return rows left in the work table */
    long workTableDepth() throws SQLException {
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + WORK_TABLE)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    void clear() throws SQLException {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("TRUNCATE ssb.message, ssb.conversation_endpoint, ssb.conversation_group,"
                    + " ssb.conversation_priority, ssb.delivery_attempt, ssb.dead_letter, ssb.transmission_queue");
            s.execute("VACUUM ANALYZE ssb.message");
            s.execute("VACUUM ANALYZE ssb.conversation_group");
            s.execute("VACUUM ANALYZE ssb.conversation_endpoint");
        }
    }

    long depth() throws SQLException {
        return depth(QUEUE);
    }

    /** @param queue {@link #QUEUE} or {@link #CLIENT_QUEUE} */
    long depth(String queue) throws SQLException {
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM ssb.message WHERE queue_name = '" + queue + "'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * @param initiatorService whose dialogs to describe
     * @return what does not depend on generated ids or times: per endpoint (state, send_sequence, group's queue),
     *         per message (sequence number, type, body size, queue, whether its group is the target endpoint's)
     */
    List<String> shapeOfConversations(String where) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = pg.connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT e.is_initiator, e.state, e.send_sequence, e.service_name, e.far_service,"
                        + " e.service_contract_name, g.queue_name, e.lifetime_expires_at IS NULL,"
                        + " e.timer_expires_at IS NULL,"
                        + " (SELECT string_agg(m.message_sequence_number || ':' || m.message_type_name || ':'"
                        + "   || length(m.message_body) || ':' || m.queue_name"
                        + "   || ':' || (m.conversation_group_id = e.conversation_group_id), ','"
                        + " ORDER BY m.queuing_order)"
                        + "  FROM ssb.message m WHERE m.conversation_handle = e.conversation_handle)"
                        + " FROM ssb.conversation_endpoint e JOIN ssb.conversation_group g"
                        + " ON g.conversation_group_id = e.conversation_group_id WHERE " + where
                        + " ORDER BY e.conversation_id, e.is_initiator");
             ResultSet rs = ps.executeQuery()) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= columns; i++) {
                    row.append(i > 1 ? " | " : "").append(rs.getString(i));
                }
                out.add(row.toString());
            }
        }
        return out;
    }
}
