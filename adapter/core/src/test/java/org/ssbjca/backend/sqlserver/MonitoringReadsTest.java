package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.ssbjca.backend.sqlserver.SqlServerNames.QueueName;

/**
 * The monitoring reads on SQL Server (dead-letter count and list, priorities, pending groups, the queue readings)
 * never wait for a delivery: a delivery that dead-letters a message holds the new row's exclusive lock until it
 * commits, and a plain read at READ COMMITTED with READ_COMMITTED_SNAPSHOT OFF waits for it
 * (https://learn.microsoft.com/sql/t-sql/statements/set-transaction-isolation-level-transact-sql). The double
 * {@link #waits} says which table reads of a statement wait behind another transaction's row locks, as Microsoft's
 * table hints page describes them: NOLOCK reads uncommitted rows, READPAST skips locked rows, and a read at READ
 * COMMITTED reads row versions with READ_COMMITTED_SNAPSHOT ON unless READCOMMITTEDLOCK asks for locks. The
 * monitoring connections are the adapter's own, at READ COMMITTED.
 */
class MonitoringReadsTest {

    private static final QueueName QUEUE = SqlServerNames.queue("dbo.EchoServiceQueue");

    private static final Pattern TABLE_READ = Pattern.compile(
            "(?:FROM|JOIN)\\s+(ssb\\.\\w+|\\[[^\\]]+\\]\\.\\[[^\\]]+\\])(?:\\s+AS\\s+\\w+)?(?:\\s+WITH\\s+\\(([^)]*)\\))?",
            Pattern.CASE_INSENSITIVE);

    @Test
    void theDoubleWaitsWhereSqlServerWaits() {
        assertEquals(List.of("ssb.dead_letter"), waits("SELECT COUNT_BIG(*) FROM ssb.dead_letter;", false));
        assertEquals(List.of(), waits("SELECT COUNT_BIG(*) FROM ssb.dead_letter;", true));
        assertEquals(List.of("ssb.t"), waits("SELECT 1 FROM ssb.t WITH (READCOMMITTEDLOCK);", true));
        assertEquals(List.of(), waits("SELECT 1 FROM ssb.t AS t WITH (READCOMMITTEDLOCK, READPAST);", false));
        assertEquals(List.of(), waits("SELECT 1 FROM [dbo].[q] AS m WITH (NOLOCK);", false));
    }

    @Test
    void noMonitoringReadWaitsForADeliveryWithReadCommittedSnapshotOnOrOff() {
        Map<String, String> reads = new LinkedHashMap<>();
        reads.put("DEAD_LETTER_COUNT", TSqlLedger.DEAD_LETTER_COUNT);
        reads.put("DEAD_LETTERS", TSqlLedger.DEAD_LETTERS);
        reads.put("findDeadLetters", TSqlLedger.findDeadLetters(true, true));
        reads.put("PRIORITIES", TSqlLedger.PRIORITIES);
        reads.put("pendingGroups", TSqlLedger.pendingGroups(QUEUE));
        reads.put("priorityRequests", TSqlLedger.priorityRequests(QUEUE));
        reads.put("queueDepth", TSqlAdmin.queueDepth(QUEUE));
        reads.put("oldestMessage", TSqlAdmin.oldestMessage(QUEUE));
        reads.put("pendingGroupCount", TSqlAdmin.pendingGroupCount(QUEUE));
        List<String> waiting = new ArrayList<>();
        for (Map.Entry<String, String> r : reads.entrySet()) {
            for (boolean rcsi : new boolean[] {false, true}) {
                for (String table : waits(r.getValue(), rcsi)) {
                    waiting.add(r.getKey() + " waits on " + table + (rcsi ? " (RCSI on)" : " (RCSI off)"));
                }
            }
        }
        assertEquals(List.of(), waiting);
    }

    /**
     * @param statement a statement run at READ COMMITTED
     * @param rcsi whether the database has READ_COMMITTED_SNAPSHOT ON
     * @return the tables it reads that it would wait on while another transaction holds a row's exclusive lock
     */
    static List<String> waits(String statement, boolean rcsi) {
        List<String> out = new ArrayList<>();
        Matcher m = TABLE_READ.matcher(statement);
        while (m.find()) {
            List<String> hints = m.group(2) == null ? List.of()
                    : Arrays.asList(m.group(2).toUpperCase(Locale.ROOT).replace(" ", "").split(","));
            boolean skipsOrDirties = hints.contains("NOLOCK") || hints.contains("READUNCOMMITTED")
                    || hints.contains("READPAST");
            boolean versions = rcsi && !hints.contains("READCOMMITTEDLOCK") && !hints.contains("UPDLOCK")
                    && !hints.contains("HOLDLOCK");
            if (!skipsOrDirties && !versions) {
                out.add(m.group(1));
            }
        }
        return out;
    }
}
