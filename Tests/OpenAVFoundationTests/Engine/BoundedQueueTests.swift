// Playhead: tests for BoundedQueue limits, blocking, abort, flush, generations and end of stream.
import OpenAVFoundation
import Testing

extension EngineTests {
    @Suite struct BoundedQueueTests {
        @Test func itemsComeOutInOrderAcrossRingGrowth() async {
            let queue = BoundedQueue<Int>(limits: .init())
            for round in 0..<5 {
                for value in 0..<30 { queue.put(round * 100 + value, generation: 0) }
                for value in 0..<25 { #expect(queue.take()?.element == round * 100 + value) }
                for value in 25..<30 { #expect(queue.tryTake()?.element == round * 100 + value) }
            }
            #expect(queue.tryTake() == nil)
        }

        @Test func reachingTheCountLimitMakesTheQueueFull() async {
            let queue = BoundedQueue<Int>(limits: .init(count: 2))
            queue.put(1, generation: 0)
            #expect(!queue.statistics.isFull)
            queue.put(2, generation: 0)
            #expect(queue.statistics.isFull)
            #expect(queue.statistics.count == 2)
        }

        @Test func reachingTheCostLimitMakesTheQueueFullAndTakingRestoresIt() async {
            let queue = BoundedQueue<String>(limits: .init(cost: 100))
            queue.put("a", cost: 60, generation: 0)
            #expect(!queue.statistics.isFull)
            queue.put("b", cost: 40, generation: 0)
            #expect(queue.statistics.isFull)
            #expect(queue.statistics.cost == 100)
            _ = queue.take()
            #expect(queue.statistics.cost == 40)
            #expect(!queue.statistics.isFull)
        }

        @Test func reachingTheDurationLimitMakesTheQueueFull() async {
            let queue = BoundedQueue<Int>(limits: .init(duration: ms(1000)))
            queue.put(1, duration: CMTime(value: 1, timescale: 3), generation: 0)
            queue.put(2, duration: CMTime(value: 1, timescale: 3), generation: 0)
            #expect(!queue.statistics.isFull)
            queue.put(3, duration: CMTime(value: 1, timescale: 3), generation: 0)
            #expect(queue.statistics.duration == ms(1000))
            #expect(queue.statistics.isFull)
            _ = queue.take()
            #expect(queue.statistics.duration == CMTime(value: 2, timescale: 3))
        }

        @Test func anOversizedElementIsAcceptedIntoAnEmptyQueue() async {
            let queue = BoundedQueue<Int>(limits: .init(cost: 10))
            #expect(queue.put(1, cost: 1_000, generation: 0) == .enqueued)
            #expect(queue.statistics.isFull)
        }

        @Test func putBlocksWhileFullUntilAConsumerTakes() async {
            let queue = BoundedQueue<Int>(limits: .init(count: 1))
            queue.put(1, generation: 0)
            let producer = TestThread { queue.put(2, generation: 0) }
            briefPause()
            #expect(!producer.isFinished)
            #expect(queue.take()?.element == 1)
            #expect(producer.join())
            #expect(queue.take()?.element == 2)
        }

        @Test func aWaitingProducerCanBeLetInOverTheLimitOnceAndLaterOnesWaitAgain() async {
            let queue = BoundedQueue<Int>(limits: .init(count: 1))
            queue.put(1, generation: 0)
            queue.admitWaitingProducers()  // nobody waits: no effect on the next put
            let first = TestThread { queue.put(2, generation: 0) }
            for _ in 0..<2_000 where queue.statistics.waitingProducers == 0 { briefPause(milliseconds: 5) }
            #expect(queue.statistics.waitingProducers == 1 && !first.isFinished, "an admission given earlier does not count")
            queue.admitWaitingProducers()
            #expect(first.join())
            #expect(queue.statistics.count == 2, "let in over the limit")
            let second = TestThread { queue.put(3, generation: 0) }
            briefPause()
            #expect(!second.isFinished, "the next producer waits for room again")
            #expect(queue.take()?.element == 1)
            #expect(queue.take()?.element == 2)
            #expect(second.join())
            #expect(queue.take()?.element == 3)
        }

        @Test func aBlockedProducerWaitsForTheRefillGapAndTheQueueReadsFullMeanwhile() async {
            let queue = BoundedQueue<Int>(limits: .init(duration: ms(1000), refillGap: ms(500)))
            for value in 1...4 { queue.put(value, duration: ms(250), generation: 0) }
            let producer = TestThread { queue.put(5, duration: ms(250), generation: 0) }
            for _ in 0..<2_000 where queue.statistics.waitingProducers == 0 { briefPause(milliseconds: 5) }
            #expect(queue.statistics.waitingProducers == 1)
            #expect(queue.take()?.element == 1)
            // 750 ms queued: below the limit, not yet by the gap; the producer sleeps on and the
            // queue still reads full, as the producer cannot put.
            briefPause()
            #expect(!producer.isFinished)
            #expect(queue.statistics.isFull)
            #expect(queue.take()?.element == 2)
            #expect(producer.join())
            #expect(queue.statistics.duration == ms(750))
            #expect(!queue.statistics.isFull)
            // A producer that did not block puts as soon as the queue is not full.
            #expect(queue.put(6, duration: ms(250), generation: 0) == .enqueued)
            #expect(queue.statistics.isFull)
        }

        @Test func takeBlocksWhileEmptyUntilAProducerPuts() async {
            let queue = BoundedQueue<Int>(limits: .init(count: 4))
            let consumer = TestThread { #expect(queue.take()?.element == 7) }
            briefPause()
            #expect(!consumer.isFinished)
            queue.put(7, generation: 0)
            #expect(consumer.join())
        }

        @Test func abortReleasesBlockedProducersAndConsumers() async {
            let full = BoundedQueue<Int>(limits: .init(count: 1))
            full.put(1, generation: 0)
            let producer = TestThread { #expect(full.put(2, generation: 0) == .aborted) }
            let empty = BoundedQueue<Int>(limits: .init(count: 1))
            let consumer = TestThread { #expect(empty.take() == nil) }
            briefPause()
            #expect(!producer.isFinished && !consumer.isFinished)
            full.abort()
            empty.abort()
            #expect(producer.join() && consumer.join())
            #expect(full.put(3, generation: 0) == .aborted)
            #expect(full.tryTake() == nil && full.peek() == nil)
            #expect(full.statistics.isAborted)
        }

        @Test func flushDropsEverythingAndRejectsOlderGenerations() async {
            let queue = BoundedQueue<Int>(limits: .init(count: 10, cost: 100))
            queue.put(1, cost: 5, duration: ms(40), generation: 0)
            queue.put(2, cost: 5, duration: ms(40), generation: 0)
            queue.markEndOfStream()
            queue.flush(newGeneration: 3)
            let stats = queue.statistics
            #expect(stats.count == 0 && stats.cost == 0 && stats.duration == .zero)
            #expect(stats.generation == 3 && !stats.endOfStreamMarked)
            #expect(queue.put(9, generation: 2) == .stale)
            #expect(queue.put(10, generation: 3) == .enqueued)
            #expect(queue.take()?.generation == 3)
        }

        @Test func aProducerBlockedDuringAFlushGetsStale() async {
            let queue = BoundedQueue<Int>(limits: .init(count: 1))
            queue.put(1, generation: 0)
            let producer = TestThread { #expect(queue.put(2, generation: 0) == .stale) }
            briefPause()
            queue.flush(newGeneration: 1)
            #expect(producer.join())
            #expect(queue.tryTake() == nil)
        }

        @Test func puttingANewerGenerationFlushesOlderEntries() async {
            let queue = BoundedQueue<Int>(limits: .init(count: 2))
            queue.put(1, generation: 0)
            queue.put(2, generation: 0)
            #expect(queue.put(3, generation: 1) == .enqueued)
            #expect(queue.statistics.count == 1)
            #expect(queue.peek()?.element == 3)
            #expect(queue.take()?.element == 3)
        }

        @Test func takeDrainsThenReturnsNilAtEndOfStream() async {
            let queue = BoundedQueue<Int>(limits: .init())
            queue.put(1, generation: 0)
            queue.markEndOfStream()
            #expect(!queue.statistics.endOfStreamReached)
            #expect(queue.take()?.element == 1)
            #expect(queue.take() == nil)
            #expect(queue.statistics.endOfStreamReached)
        }

        @Test func markingEndOfStreamReleasesABlockedConsumer() async {
            let queue = BoundedQueue<Int>(limits: .init())
            let consumer = TestThread { #expect(queue.take() == nil) }
            briefPause()
            queue.markEndOfStream()
            #expect(consumer.join())
        }

        @Test func peekShowsTheHeadWithoutRemovingIt() async {
            let queue = BoundedQueue<String>(limits: .init())
            #expect(queue.peek() == nil)
            queue.put("x", cost: 3, duration: ms(20), generation: 4)
            let head = queue.peek()
            #expect(head?.element == "x" && head?.cost == 3 && head?.duration == ms(20))
            #expect(head?.generation == 4)
            #expect(queue.statistics.count == 1)
        }

        @Test func invalidDurationsCountAsZero() async {
            let queue = BoundedQueue<Int>(limits: .init(duration: ms(100)))
            queue.put(1, duration: .invalid, generation: 0)
            #expect(queue.statistics.duration == .zero)
            #expect(!queue.statistics.isFull)
        }
    }
}
