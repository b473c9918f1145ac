package org.ssbjca.conformance;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.ssbjca.api.TableRow;
import org.ssbjca.backend.BackendKind;
import org.ssbjca.backend.table.ColumnRole;
import org.ssbjca.backend.table.TableCounts;
import org.ssbjca.backend.table.TableDefinition;
import org.ssbjca.backend.table.TableQueue;

/**
 * Work queues on an application's own tables (seeds 003 and 004), on every backend: the seeds' tables as published
 * (seed 003's {@code Job_Queue} with its lease, attempts and GUID mark; seed 004's {@code Messaging.Message}, rows kept
 * with their dequeue time), each row taken exactly once by several readers that never wait for each other, leases that
 * end, the attempt limit, and the errors that name a property.
 */
class TableQueueConformanceTest {

    private static final AtomicInteger TABLES = new AtomicInteger();

    /** Seed 003: rows in priority order (lowest first), then availability; rows not yet available are left. */
    @BackendTest
    void jobQueueRowsAreLeasedInPriorityThenAvailabilityOrderAndNotBeforeTheirTime(Db db) throws Exception {
        String table = jobQueue(db);
        try (Connection c = db.fixture().connect()) {
            JobQueueRows.insert(c, table, 5, 0, "p5 now");
            JobQueueRows.insert(c, table, 1, -60, "p1 a minute ago");
            JobQueueRows.insert(c, table, 1, -120, "p1 two minutes ago");
            JobQueueRows.insert(c, table, 0, 3600, "p0 in an hour");
            c.commit();
            TableQueue q = db.broker().tableQueue(jobQueueDefinition(table, 60, 3).resolve(c));

            List<TableRow> rows = q.lease(c, 10);
            c.commit();
            assertEquals(List.of("p1 two minutes ago", "p1 a minute ago", "p5 now"),
                    rows.stream().map(TableRow::payloadText).toList());
            rows.forEach(r -> assertEquals(1, r.attempt(), r.toString()));
            assertEquals(List.of(), q.lease(c, 10), "leased rows and rows not yet available are left");
            c.commit();
            TableCounts counts = q.counts(c);
            assertEquals(new TableCounts(0, 1, 3, 0, null, counts.now(), 0), counts);

            assertTrue(q.complete(c, rows.get(0)));
            c.commit();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT Payload FROM " + table
                    + " WHERE Last_Attempt_End_Date IS NOT NULL")) {
                assertTrue(rs.next());
                assertEquals("p1 two minutes ago", rs.getString(1), "kept, with its end date, as seed 003 keeps it");
                assertFalse(rs.next());
            }
            c.commit();
        }
    }

    /**
     * Seed 004: 8 readers take 10,000 messages, each exactly once, in transactions that commit the dequeue time. A
     * ninth transaction holds 5 rows for the whole run and the readers run with a lock timeout of 200 ms: a reader that
     * waited for a row another transaction holds would fail. Once it rolls back, its rows are taken too.
     */
    @BackendTest
    void eightReadersTakeEachMessageExactlyOnceWithoutWaiting(Db db) throws Exception {
        String table = messagingMessage(db);
        int rows = 10_000;
        try (Connection c = db.fixture().connect()) {
            String insert = "INSERT INTO " + table + " (MessageId, MessageBody, EnqueueTime) VALUES (?, ?, ?)";
            try (PreparedStatement ps = c.prepareStatement(insert)) {
                java.sql.Timestamp start = new java.sql.Timestamp(System.currentTimeMillis() - 3_600_000);
                for (int i = 0; i < rows; i++) {
                    ps.setObject(1, uuid(db, UUID.randomUUID()));
                    ps.setBytes(2, ("m" + i).getBytes(StandardCharsets.UTF_8));
                    ps.setTimestamp(3, new java.sql.Timestamp(start.getTime() + i));
                    ps.addBatch();
                    if (i % 1000 == 999) {
                        ps.executeBatch();
                    }
                }
            }
            c.commit();
            TableDefinition.Resolved resolved = messageDefinition(table).resolve(c);
            c.commit();
            TableQueue q = db.broker().tableQueue(resolved);
            Connection holder = db.fixture().connect();
            List<TableRow> held = q.take(holder, 5);
            assertEquals(5, held.size());
            Set<String> taken = ConcurrentHashMap.newKeySet();
            AtomicInteger duplicates = new AtomicInteger();
            ExecutorService readers = Executors.newFixedThreadPool(8);
            try {
                List<Future<Integer>> done = new ArrayList<>();
                for (int r = 0; r < 8; r++) {
                    done.add(readers.submit(() -> {
                        int mine = 0;
                        try (Connection own = db.fixture().connect()) {
                            db.fixture().setLockTimeout(own, 200);
                            own.commit();
                            List<TableRow> got;
                            do {
                                got = q.take(own, 10);
                                own.commit();
                                for (TableRow row : got) {
                                    if (!taken.add(row.payloadText())) {
                                        duplicates.incrementAndGet();
                                    }
                                }
                                mine += got.size();
                            } while (!got.isEmpty());
                        }
                        return mine;
                    }));
                }
                int total = 0;
                for (Future<Integer> f : done) {
                    total += f.get();
                }
                assertEquals(rows - 5, total, "every row but the held ones");
                holder.rollback();
                List<TableRow> rest = q.take(c, 10);
                c.commit();
                assertEquals(held.stream().map(TableRow::payloadText).toList(),
                        rest.stream().map(TableRow::payloadText).toList(), "the held rows, once released");
                rest.forEach(r -> {
                    if (!taken.add(r.payloadText())) {
                        duplicates.incrementAndGet();
                    }
                });
                assertEquals(0, duplicates.get(), "no message taken twice");
                assertEquals(rows, taken.size());
            } finally {
                readers.shutdownNow();
                holder.close();
            }
            assertEquals(rows, count(c, "SELECT COUNT(*) FROM " + table + " WHERE DequeueTime IS NOT NULL"),
                    "every message kept with its dequeue time");
            assertEquals(0, q.counts(c).available());
            c.commit();
        }
    }

    /** Rows come out in the order column's order (seed 004's enqueue time), whatever the keys' order. */
    @BackendTest
    void messagesAreTakenInEnqueueOrderAndARollbackPutsThemBack(Db db) throws Exception {
        String table = messagingMessage(db);
        try (Connection c = db.fixture().connect()) {
            insertMessages(db, c, table, 5);
            TableQueue q = db.broker().tableQueue(messageDefinition(table).resolve(c));
            List<TableRow> first = q.take(c, 3);
            assertEquals(List.of("m0", "m1", "m2"), first.stream().map(TableRow::payloadText).toList());
            assertTrue(first.get(0).payload() instanceof byte[], "a binary payload is given as bytes");
            c.rollback();
            assertEquals(5, q.counts(c).available(), "the rollback put them back");
            List<TableRow> again = q.take(c, 10);
            c.commit();
            assertEquals(List.of("m0", "m1", "m2", "m3", "m4"), again.stream().map(TableRow::payloadText).toList());
        }
    }

    /**
     * A taking leaves out the keys it is given (rows held back after a failed delivery), whatever their number: the
     * rows behind them are taken.
     */
    @BackendTest
    void aTakingLeavesOutTheHeldKeys(Db db) throws Exception {
        String table = messagingMessage(db);
        try (Connection c = db.fixture().connect()) {
            insertMessages(db, c, table, 6);
            TableQueue q = db.broker().tableQueue(messageDefinition(table).resolve(c));
            List<TableRow> all = q.take(c, 10);
            c.rollback();
            List<TableRow> behind = q.take(c, 2, List.of(all.get(0).key()));
            assertEquals(List.of("m1", "m2"), behind.stream().map(TableRow::payloadText).toList());
            c.rollback();
            List<TableRow> rest = q.take(c, 10, List.of(all.get(0).key(), all.get(2).key(), all.get(3).key()));
            c.rollback();
            assertEquals(List.of("m1", "m4", "m5"), rest.stream().map(TableRow::payloadText).toList());
        }
    }

    /**
     * The counts read the table without locks: a taking not yet committed (a transactional delivery in progress)
     * still counts as available on H2 and PostgreSQL, which read the committed rows; SQL Server reads
     * {@code WITH (NOLOCK)}, uncommitted changes included, and counts the rows as taken. Nothing is leased.
     */
    @BackendTest
    void aTakingNotYetCommittedCountsAsAvailableWhereTheCountReadsCommittedRows(Db db) throws Exception {
        String table = messagingMessage(db);
        try (Connection c = db.fixture().connect(); Connection holder = db.fixture().connect()) {
            insertMessages(db, c, table, 5);
            TableQueue q = db.broker().tableQueue(messageDefinition(table).resolve(c));
            c.commit();
            assertEquals(2, q.take(holder, 2).size());
            TableCounts during = q.counts(c);
            c.commit();
            assertEquals(db.broker().kind() == BackendKind.SQLSERVER ? 3 : 5, during.available());
            assertEquals(new TableCounts(during.available(), 0, 0, 0, null, during.now(), 0), during,
                    "nothing waits, nothing is leased or set aside, no availability column");
            holder.commit();
            assertEquals(3, q.counts(c).available(), "the taking committed");
            c.commit();
        }
    }

    /** A reader that dies leaves its leased row to be taken again when the lease ends, as the next attempt. */
    @BackendTest
    void aLeaseThatEndsMakesTheRowAvailableAgainAndTheLateCompletionIsRefused(Db db) throws Exception {
        String table = jobQueue(db);
        try (Connection c = db.fixture().connect()) {
            JobQueueRows.insert(c, table, 1, -1, "work");
            c.commit();
            TableQueue q = db.broker().tableQueue(jobQueueDefinition(table, 1, 5).resolve(c));
            TableRow first = q.lease(c, 1).get(0);
            c.commit(); // the reader dies here: no completion, no release
            assertEquals(1, first.attempt());
            assertNotNull(first.leaseToken());

            TableRow second = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        List<TableRow> got = q.lease(c, 1);
                        c.commit();
                        return got.isEmpty() ? null : got.get(0);
                    }, java.util.Objects::nonNull);
            assertEquals(first.key(), second.key());
            assertEquals(2, second.attempt(), "the attempts column counted both takings");
            assertFalse(q.complete(c, first), "the first lease's completion comes too late");
            c.rollback();
            assertTrue(q.complete(c, second));
            c.commit();
            assertEquals(0, count(c, "SELECT COUNT(*) FROM " + table + " WHERE Last_Attempt_End_Date IS NULL"));
            c.commit();
        }
    }

    /** A failed delivery's row comes back after the retry delay; taken maxAttempts times, it is set aside. */
    @BackendTest
    void rowsTakenMaxAttemptsTimesAreSetAsideThenRedeliveredOrPurged(Db db) throws Exception {
        String table = jobQueue(db);
        try (Connection c = db.fixture().connect()) {
            JobQueueRows.insert(c, table, 1, -1, "poison");
            c.commit();
            TableQueue q = db.broker().tableQueue(jobQueueDefinition(table, 300, 2).resolve(c));
            for (int attempt = 1; attempt <= 2; attempt++) {
                List<TableRow> got = q.lease(c, 1);
                c.commit();
                assertEquals(1, got.size(), "attempt " + attempt);
                assertEquals(attempt, got.get(0).attempt());
                q.release(c, got.get(0), 0); // the bean failed: take it again now
                c.commit();
            }
            assertEquals(List.of(), q.lease(c, 1), "taken twice with maxAttempts 2: set aside");
            c.commit();
            assertEquals(1, q.counts(c).setAside());
            assertEquals(1, q.redeliverSetAside(c));
            c.commit();
            List<TableRow> redelivered = q.lease(c, 1);
            c.commit();
            assertEquals(1, redelivered.size());
            assertEquals(1, redelivered.get(0).attempt(), "a new round of attempts");
            q.release(c, redelivered.get(0), 0);
            q.release(c, q.lease(c, 1).get(0), 0);
            c.commit();
            assertEquals(1, q.counts(c).setAside());
            assertEquals(1, q.purgeSetAside(c));
            c.commit();
            assertEquals(0, count(c, "SELECT COUNT(*) FROM " + table));
            c.commit();
        }
    }

    /**
     * Issue 45 point 1: completion, redelivery and purge read how many rows they changed whatever the session's
     * NOCOUNT (here set ON by a batch of its own, as a server's 'user options' would set it for every session).
     */
    @BackendTest
    void leasedRowsCompleteAndTheOperatorsCountsAreRightInASessionWithNocountOn(Db db) throws Exception {
        assumeTrue(db.broker().kind() == BackendKind.SQLSERVER, "SET NOCOUNT is T-SQL");
        String table = jobQueue(db);
        try (Connection c = db.fixture().connect()) {
            try (Statement s = c.createStatement()) {
                s.execute("SET NOCOUNT ON");
            }
            JobQueueRows.insert(c, table, 1, -1, "done");
            JobQueueRows.insert(c, table, 2, -1, "poison");
            JobQueueRows.insert(c, table, 3, -1, "poison too");
            c.commit();
            TableQueue q = db.broker().tableQueue(jobQueueDefinition(table, 300, 1).resolve(c));
            List<TableRow> rows = q.lease(c, 3);
            c.commit();
            assertEquals(3, rows.size());
            assertTrue(q.complete(c, rows.get(0)), "the lease is still this taking's");
            c.commit();
            q.release(c, rows.get(1), 0);
            q.release(c, rows.get(2), 0);
            c.commit();
            assertEquals(2, q.redeliverSetAside(c), "taken once with maxAttempts 1: both set aside");
            c.commit();
            q.release(c, q.lease(c, 1).get(0), 0);
            c.commit();
            assertEquals(1, q.purgeSetAside(c));
            c.commit();
            assertEquals(1, count(c, "SELECT COUNT(*) FROM " + table + " WHERE Last_Attempt_End_Date IS NULL"));
            c.commit();
        }
    }

    /**
     * Issue 45 point 4: without a mark the lease's end is the token; seed 003's Timeout_Date is a datetime, whose
     * values end in .xx0, .xx3 or .xx7, and each completion matches its own lease whatever it ends in.
     */
    @BackendTest
    void leasesWithoutAMarkCompleteWhateverMillisecondsTheirEndHas(Db db) throws Exception {
        String table = jobQueue(db);
        try (Connection c = db.fixture().connect()) {
            for (int i = 0; i < 30; i++) {
                JobQueueRows.insert(c, table, 1, -1, "work " + i);
            }
            c.commit();
            TableQueue q = db.broker().tableQueue(TableDefinition.table(table).mode(TableDefinition.Mode.LEASED)
                    .column(ColumnRole.KEY, "ID").column(ColumnRole.PAYLOAD, "Payload")
                    .column(ColumnRole.LEASE, "Timeout_Date").build().resolve(c));
            Set<Long> endings = new HashSet<>();
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                List<TableRow> got = q.lease(c, 1);
                c.commit();
                Timestamp token = (Timestamp) got.get(0).leaseToken();
                assertTrue(q.complete(c, got.get(0)), "lease ending " + token);
                c.commit();
                endings.add(token.getNanos() / 1_000_000L % 10);
                return endings.size() > 1;
            });
        }
    }

    /** Issue 45 point 4: a time column SYSDATETIME() cannot be compared with is refused, naming what is accepted. */
    @BackendTest
    void aDatetimeoffsetLeaseColumnIsRefusedOnSqlServer(Db db) throws Exception {
        assumeTrue(db.broker().kind() == BackendKind.SQLSERVER, "the accepted types are SQL Server's");
        String table = "Offset_Queue_" + TABLES.incrementAndGet();
        execute(db, "CREATE TABLE " + table + " (ID INT PRIMARY KEY, Payload VARCHAR(10), Lease DATETIMEOFFSET)");
        try (Connection c = db.fixture().connect()) {
            TableDefinition.Resolved resolved = TableDefinition.table(table).mode(TableDefinition.Mode.LEASED)
                    .column(ColumnRole.KEY, "ID").column(ColumnRole.PAYLOAD, "Payload")
                    .column(ColumnRole.LEASE, "Lease")
                    .build().resolve(c);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> db.broker().tableQueue(resolved));
            assertTrue(e.getMessage().startsWith("leaseColumn: the column Lease of [dbo].[" + table
                    + "] is datetimeoffset;"), e.getMessage());
            assertTrue(e.getMessage().endsWith("accepts datetime2 or datetime"), e.getMessage());
            c.rollback();
        }
    }

    /**
     * Issue 45 point 10: a row whose availability column is NULL is never taken (the application has not scheduled
     * it) and is counted as unscheduled, so that it is not lost from sight.
     */
    @BackendTest
    void rowsWithoutAnAvailabilityTimeAreNotTakenAndCountedUnscheduled(Db db) throws Exception {
        String table = "Scheduled_Queue_" + TABLES.incrementAndGet();
        String time = db.broker().kind() == BackendKind.SQLSERVER ? "DATETIME2" : "TIMESTAMP";
        execute(db, "CREATE TABLE " + table + " (ID INT PRIMARY KEY, Payload VARCHAR(20), Available_Date " + time
                + " NULL)", "INSERT INTO " + table + " VALUES (1, 'unscheduled', NULL)",
                "INSERT INTO " + table + " VALUES (2, 'due', '2000-01-01 00:00:00')");
        try (Connection c = db.fixture().connect()) {
            TableQueue q = db.broker().tableQueue(TableDefinition.table(table).column(ColumnRole.KEY, "ID")
                    .column(ColumnRole.PAYLOAD, "Payload").column(ColumnRole.AVAILABLE, "Available_Date").build()
                    .resolve(c));
            TableCounts counts = q.counts(c);
            assertEquals(1, counts.available());
            assertEquals(0, counts.waiting());
            assertEquals(1, counts.unscheduled(), "the row with no availability time: " + counts);
            assertEquals(List.of("due"), q.take(c, 10).stream().map(TableRow::payloadText).toList());
            c.rollback();
        }
    }

    /**
     * Issue 47 point 3: the error column takes a failure's error cut to its length (an {@code nvarchar(30)} on SQL
     * Server, a {@code varchar(30)} elsewhere) and the whole error when it has none ({@code nvarchar(max)},
     * {@code text}, H2's {@code CLOB}), kept at {@value TableDefinition#ERROR_LENGTH} characters.
     */
    @BackendTest
    void theErrorColumnTakesAFailureCutToItsLength(Db db) throws Exception {
        String table = jobQueue(db);
        boolean sqlServer = db.broker().kind() == BackendKind.SQLSERVER;
        String unbounded = sqlServer ? "NVARCHAR(MAX)" : db.broker().kind() == BackendKind.POSTGRESQL ? "TEXT" : "CLOB";
        execute(db, "ALTER TABLE " + table + " ADD Short_Error " + (sqlServer ? "NVARCHAR(30)" : "VARCHAR(30)"),
                "ALTER TABLE " + table + " ADD Long_Error " + unbounded);
        String error = "java.lang.IllegalStateException: " + "é".repeat(5000);
        try (Connection c = db.fixture().connect()) {
            JobQueueRows.insert(c, table, 1, -1, "failing");
            c.commit();
            for (String column : new String[] {"Short_Error", "Long_Error"}) {
                TableQueue q = db.broker().tableQueue(TableDefinition.table(table).column(ColumnRole.KEY, "ID")
                        .column(ColumnRole.PAYLOAD, "Payload").column(ColumnRole.ATTEMPTS, "Attempts")
                        .column(ColumnRole.ERROR, column).build().resolve(c));
                List<TableRow> got = q.take(c, 1);
                c.rollback(); // the bean failed
                q.recordErrors(c, got, error);
                c.commit();
            }
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT Short_Error, Long_Error FROM " + table)) {
                rs.next();
                assertEquals(error.substring(0, 30), rs.getString(1));
                assertEquals(error.substring(0, TableDefinition.ERROR_LENGTH), rs.getString(2));
            }
            c.rollback();
        }
    }

    /**
     * Issue 47 point 3: the set-aside rows are read with their errors and the errors' times (the database's clock,
     * written with each error) in key order, at most as many as asked, and a redelivery by keys gives back only those
     * of them that are set aside.
     */
    @BackendTest
    void setAsideRowsAreListedWithTheirErrorsAndRedeliveredByKey(Db db) throws Exception {
        String table = jobQueue(db);
        execute(db, "ALTER TABLE " + table + " ADD Last_Error VARCHAR(100)", "ALTER TABLE " + table
                + " ADD Last_Error_At " + (db.broker().kind() == BackendKind.SQLSERVER ? "DATETIME2" : "TIMESTAMP"));
        try (Connection c = db.fixture().connect()) {
            for (int i = 1; i <= 4; i++) {
                JobQueueRows.insert(c, table, 1, -1, "row " + i);
            }
            c.commit();
            TableQueue q = db.broker().tableQueue(TableDefinition.table(table).column(ColumnRole.KEY, "ID")
                    .column(ColumnRole.PAYLOAD, "Payload").column(ColumnRole.ATTEMPTS, "Attempts")
                    .column(ColumnRole.ERROR, "Last_Error").column(ColumnRole.ERROR_TIME, "Last_Error_At")
                    .maxAttempts(2).build().resolve(c));
            List<TableRow> rows = q.take(c, 4);
            c.rollback();
            q.setAside(c, rows.subList(0, 3));
            q.recordErrors(c, rows.subList(0, 2), "java.lang.IllegalStateException: order 7 not found");
            c.commit();
            List<org.ssbjca.backend.table.SetAsideRow> aside = q.setAsideRows(c, 10);
            assertEquals(List.of("order 7 not found", "order 7 not found", "null"), aside.stream()
                    .map(r -> String.valueOf(r.error()).replace("java.lang.IllegalStateException: ", "")).toList());
            assertEquals(List.of(true, true, false), aside.stream().map(r -> r.failedAt() != null).toList(),
                    "a time with each error written");
            assertEquals(2, q.setAsideRows(c, 2).size());
            assertEquals(1, q.redeliverSetAside(c, List.of(aside.get(1).key(), rows.get(3).key())),
                    "the set-aside one of the two keys");
            c.commit();
            assertEquals(List.of(aside.get(0).key(), aside.get(2).key()), q.setAsideRows(c, 10).stream()
                    .map(org.ssbjca.backend.table.SetAsideRow::key).toList());
            c.rollback();
        }
    }

    /** Transactional mode: a failed delivery is counted after its rollback, and the limit sets the row aside. */
    @BackendTest
    void transactionalFailuresAreCountedAndTheLimitSetsTheRowAside(Db db) throws Exception {
        String table = jobQueue(db);
        try (Connection c = db.fixture().connect()) {
            JobQueueRows.insert(c, table, 1, -1, "poison");
            c.commit();
            TableDefinition d = TableDefinition.table(table).column(ColumnRole.KEY, "ID").column(ColumnRole.PAYLOAD,
                    "Payload").column(ColumnRole.PRIORITY, "Priority").column(ColumnRole.AVAILABLE, "Available_Date")
                    .column(ColumnRole.ATTEMPTS, "Attempts").maxAttempts(2).build();
            TableQueue q = db.broker().tableQueue(d.resolve(c));
            for (int attempt = 1; attempt <= 2; attempt++) {
                List<TableRow> got = q.take(c, 1);
                assertEquals(attempt, got.get(0).attempt());
                c.rollback(); // the bean failed
                q.countFailures(c, got);
                c.commit();
            }
            assertEquals(List.of(), q.take(c, 1));
            c.rollback();
            assertEquals(1, q.counts(c).setAside());
            c.commit();
        }
    }

    /**
     * An unrecoverable failure (the failure policy) sets the row aside at once, whatever its attempts so far; an
     * operator's redelivery gives it another round.
     */
    @BackendTest
    void anUnrecoverableRowIsSetAsideAtOnce(Db db) throws Exception {
        String table = jobQueue(db);
        try (Connection c = db.fixture().connect()) {
            JobQueueRows.insert(c, table, 1, -1, "unparsable");
            JobQueueRows.insert(c, table, 2, -1, "fine");
            c.commit();
            TableDefinition d = TableDefinition.table(table).column(ColumnRole.KEY, "ID").column(ColumnRole.PAYLOAD,
                    "Payload").column(ColumnRole.PRIORITY, "Priority").column(ColumnRole.AVAILABLE, "Available_Date")
                    .column(ColumnRole.ATTEMPTS, "Attempts").maxAttempts(5).build();
            TableQueue q = db.broker().tableQueue(d.resolve(c));
            List<TableRow> got = q.take(c, 1);
            assertEquals("unparsable", got.get(0).payloadText());
            c.rollback(); // the bean failed: unrecoverable
            q.setAside(c, got);
            c.commit();
            assertEquals(1, q.counts(c).setAside());
            assertEquals(List.of("fine"), q.take(c, 10).stream().map(TableRow::payloadText).toList());
            c.rollback();
            assertEquals(1, q.redeliverSetAside(c));
            c.commit();
            assertEquals(List.of("unparsable", "fine"), q.take(c, 10).stream().map(TableRow::payloadText).toList());
            c.rollback();
        }
    }

    @BackendTest
    void aNameThatMatchesNoTableOrColumnFailsNamingItsProperty(Db db) throws Exception {
        String table = jobQueue(db);
        try (Connection c = db.fixture().connect()) {
            IllegalArgumentException noColumn = assertThrows(IllegalArgumentException.class, () -> TableDefinition
                    .table(table).column(ColumnRole.KEY, "ID").column(ColumnRole.PAYLOAD, "Body").build().resolve(c));
            assertTrue(noColumn.getMessage().startsWith("payloadColumn: "), noColumn.getMessage());
            assertTrue(noColumn.getMessage().toLowerCase(java.util.Locale.ROOT).contains("payload"),
                    "lists the columns: " + noColumn.getMessage());
            IllegalArgumentException noTable = assertThrows(IllegalArgumentException.class, () -> TableDefinition
                    .table("No_Such_Table").column(ColumnRole.KEY, "ID").column(ColumnRole.PAYLOAD, "Payload").build()
                    .resolve(c));
            assertTrue(noTable.getMessage().startsWith("table: "), noTable.getMessage());
            c.rollback();
        }
    }

    // ---- the seeds' tables

    /** Seed 003's Job_Queue as published (SQL Server), or the same columns in H2's and PostgreSQL's types. */
    private static String jobQueue(Db db) throws SQLException {
        String name = "Job_Queue_" + TABLES.incrementAndGet();
        String ddl;
        if (db.broker().kind() == BackendKind.SQLSERVER) {
            ddl = "CREATE TABLE [dbo].[" + name + "] ( [ID] [BIGINT] IDENTITY(1,1) NOT NULL, [Priority] [tinyint]"
                    + " NOT NULL DEFAULT ((255)), [Available_Date] [datetime] NOT NULL DEFAULT (getdate()),"
                    + " [Timeout_Date] [datetime] NULL, [Attempts] [INT] NOT NULL DEFAULT ((0)), [Processing_Mark]"
                    + " [uniqueidentifier] NULL, [Processing_Server] [VARCHAR](50) NULL, [Last_Attempt_Start_Date]"
                    + " [datetime] NULL, [Last_Attempt_End_Date] [datetime] NULL, [Payload] [VARCHAR](100) NOT NULL"
                    + " DEFAULT ('a piece of work in the queue'), PRIMARY KEY CLUSTERED ([ID] ASC))";
        } else {
            ddl = "CREATE TABLE " + name + " (ID BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
                    + " Priority SMALLINT DEFAULT 255 NOT NULL, Available_Date TIMESTAMP DEFAULT LOCALTIMESTAMP NOT NULL,"
                    + " Timeout_Date TIMESTAMP, Attempts INT DEFAULT 0 NOT NULL, Processing_Mark UUID,"
                    + " Processing_Server VARCHAR(50), Last_Attempt_Start_Date TIMESTAMP, Last_Attempt_End_Date"
                    + " TIMESTAMP, Payload VARCHAR(100) DEFAULT 'a piece of work in the queue' NOT NULL)";
        }
        execute(db, ddl, "CREATE INDEX " + name + "_pick ON " + name + " (Priority, Available_Date)");
        return name;
    }

    /** Seed 003's columns: lease = Timeout_Date, mark = Processing_Mark, kept with Last_Attempt_End_Date. */
    private static TableDefinition jobQueueDefinition(String table, int leaseSeconds, int maxAttempts) {
        return TableDefinition.table(table).mode(TableDefinition.Mode.LEASED).column(ColumnRole.KEY, "ID")
                .column(ColumnRole.PAYLOAD, "Payload").column(ColumnRole.PRIORITY, "Priority")
                .column(ColumnRole.AVAILABLE, "Available_Date").column(ColumnRole.LEASE, "Timeout_Date")
                .column(ColumnRole.MARK, "Processing_Mark").column(ColumnRole.ATTEMPTS, "Attempts")
                .column(ColumnRole.DONE, "Last_Attempt_End_Date").leaseSeconds(leaseSeconds).maxAttempts(maxAttempts)
                .build();
    }

    /** Seed 004's Messaging.Message as published, with a key and an index on the enqueue time. */
    private static String messagingMessage(Db db) throws SQLException {
        String name = "Messaging.Message_" + TABLES.incrementAndGet();
        String binary = db.broker().kind() == BackendKind.POSTGRESQL ? "BYTEA" : "VARBINARY(1000)";
        String uuid = db.broker().kind() == BackendKind.SQLSERVER ? "UNIQUEIDENTIFIER" : "UUID";
        String time = db.broker().kind() == BackendKind.SQLSERVER ? "DATETIME" : "TIMESTAMP";
        String schema = db.broker().kind() == BackendKind.SQLSERVER
                ? "IF SCHEMA_ID('Messaging') IS NULL EXEC('CREATE SCHEMA Messaging')"
                : "CREATE SCHEMA IF NOT EXISTS Messaging";
        execute(db, schema, "CREATE TABLE " + name + " (MessageId " + uuid + " NOT NULL PRIMARY KEY, MessageBody "
                + binary + " NOT NULL, EnqueueTime " + time + " NOT NULL, DequeueTime " + time + " NULL)",
                "CREATE INDEX " + name.substring("Messaging.".length()) + "_order ON " + name
                        + " (EnqueueTime)");
        return name;
    }

    /** Inserts and commits n messages (m0, m1, ...) enqueued a second apart, the first a minute ago. */
    private static void insertMessages(Db db, Connection c, String table, int n) throws SQLException {
        String insert = "INSERT INTO " + table + " (MessageId, MessageBody, EnqueueTime) VALUES (?, ?, ?)";
        long now = System.currentTimeMillis();
        try (PreparedStatement ps = c.prepareStatement(insert)) {
            for (int i = 0; i < n; i++) {
                ps.setObject(1, uuid(db, UUID.randomUUID()));
                ps.setBytes(2, ("m" + i).getBytes(StandardCharsets.UTF_8));
                ps.setTimestamp(3, new Timestamp(now - 60_000 + i * 1000L));
                ps.addBatch();
            }
            ps.executeBatch();
        }
        c.commit();
    }

    private static TableDefinition messageDefinition(String table) {
        return TableDefinition.table(table).column(ColumnRole.KEY, "MessageId")
                .column(ColumnRole.PAYLOAD, "MessageBody")
                .column(ColumnRole.ORDER, "EnqueueTime").column(ColumnRole.DONE, "DequeueTime").build();
    }

    private static Object uuid(Db db, UUID id) {
        return db.broker().kind() == BackendKind.SQLSERVER ? id.toString() : id;
    }

    static void execute(Db db, String... statements) throws SQLException {
        try (Connection c = db.fixture().connect(); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
            c.commit();
        }
    }

    static long count(Connection c, String query) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @SuppressWarnings("unused")
    private static Set<Object> keys(List<TableRow> rows) {
        Set<Object> keys = new HashSet<>();
        rows.forEach(r -> keys.add(r.key()));
        return keys;
    }
}
