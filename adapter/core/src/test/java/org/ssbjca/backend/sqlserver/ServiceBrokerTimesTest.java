package org.ssbjca.backend.sqlserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Service Broker's times ({@code lifetime}, {@code message_enqueue_time}) are read as UTC ({@link TSql#UTC_TIMES}):
 * no statement that reads them compares them with SQL Server's local clock, which differs from UTC by the server's
 * offset. On a real server whose clock is not UTC, TimeZoneConformanceTest checks the instants themselves.
 */
class ServiceBrokerTimesTest {

    private static final Pattern LOCAL_CLOCK = Pattern.compile("\\b(SYSDATETIME|GETDATE|CURRENT_TIMESTAMP)\\b(\\(\\))?",
            Pattern.CASE_INSENSITIVE);

    @Test
    void noStatementComparesServiceBrokerTimesWithTheLocalClock() throws Exception {
        List<String> local = new ArrayList<>();
        int reading = 0;
        for (Map.Entry<String, String> s : ReadPastIsolationTest.statements().entrySet()) {
            String text = s.getValue();
            if (text.contains("lifetime") || text.contains("message_enqueue_time")) {
                reading++;
                if (LOCAL_CLOCK.matcher(text).find()) {
                    local.add(s.getKey());
                }
            }
        }
        assertTrue(reading >= 4, "the statements reading Service Broker's times were found: " + reading);
        assertEquals(List.of(), local);
    }
}
