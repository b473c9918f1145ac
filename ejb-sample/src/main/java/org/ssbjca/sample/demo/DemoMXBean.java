package org.ssbjca.sample.demo;

/**
 * The sample's scenarios, runnable from JConsole, jboss-cli or the demo client, under
 * {@code org.ssbjca.sample:type=Demo}. Each operation runs a scenario to its end and returns a printable report.
 */
public interface DemoMXBean {

    /**
     * Sends {@code count} requests to EchoService, each on a dialog of its own, and waits for every reply.
     *
     * @param count how many requests, 1 to 1000
     * @return one line per request: when it was sent, the reply, how long it took
     */
    String runEcho(int count);
}
