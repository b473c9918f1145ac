package org.ssbjca.sample.demo;

import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.ssbjca.api.Conversation;
import org.ssbjca.sample.echo.EchoClient;

/** The scenarios behind {@link DemoMXBean}, run with the sample's EJBs. */
final class Demo implements DemoMXBean {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");
    private static final Duration REPLY_WAIT = Duration.ofSeconds(30);

    private final EchoClient echo;

    Demo(EchoClient echo) {
        this.echo = echo;
    }

    @Override
    public String runEcho(int count) {
        if (count < 1 || count > 1000) {
            throw new IllegalArgumentException("count must be between 1 and 1000: " + count);
        }
        List<Conversation> dialogs = new ArrayList<>();
        List<Long> sentAt = new ArrayList<>();
        StringBuilder report = new StringBuilder();
        report.append(String.format("Echo: %d requests, each on its own dialog, EchoClientService -> EchoService%n",
                count));
        for (int i = 1; i <= count; i++) {
            sentAt.add(System.nanoTime());
            dialogs.add(echo.send("request " + i));
            report.append(String.format("  %s  sent     'request %d' (committed)%n", LocalTime.now().format(TIME), i));
        }
        for (int i = 0; i < count; i++) {
            String reply = echo.awaitReply(dialogs.get(i), REPLY_WAIT);
            long millis = (System.nanoTime() - sentAt.get(i)) / 1_000_000;
            report.append(String.format("  %s  received '%s' %d ms after sending; both sides ended%n",
                    LocalTime.now().format(TIME), reply == null ? "(nothing)" : reply, millis));
        }
        return report.toString();
    }
}
