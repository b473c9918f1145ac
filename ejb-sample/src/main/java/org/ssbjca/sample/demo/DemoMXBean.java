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

    /**
     * Seed 000: {@code requests} requests to PriorityService (one reader), each on its own dialog; every 10th also
     * asks for priority = its number. Request 0 is in work while the others arrive.
     *
     * @param requests how many, 1 to 200
     * @param workloadMillis how long the service works on each request
     * @return the responses in the order they came back, with times and readers
     */
    String runPriority(int requests, int workloadMillis);

    /**
     * Seed 002's run: one scheduler, stages 100 x4, 200 x2, 300 x1, 400 x2, 500 x1, with the seed's delays
     * (10.1 s, 9.2 s, 8.3 s, 7.4 s, 6.5 s) scaled down.
     *
     * @param percentOfSeedDelays 1 to 100: 10 runs the stages in about 4 s
     * @return the execution log with a time bar per task, and when each stage ran
     */
    String runStagedScheduler(int percentOfSeedDelays);

    /**
     * Seeds 003 and 004: {@code items} work items on {@code channels} dialogs, drained by WorkItemProcessor's eight
     * readers, and what the work log says about them.
     *
     * @param items how many, 1 to 100000
     * @param channels how many dialogs carry them, 1 to 1000
     * @return how long it took, how often each item was processed, and how many each reader took
     */
    String runWorkQueue(int items, int channels);
}
