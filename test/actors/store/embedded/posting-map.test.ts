import test from 'ava';
import { PostingMap } from '../../../../actors/store/embedded/posting-map.js';

const ids = (map: PostingMap, key: string) => [...(map.get(key) ?? [])].sort();

test('a key goes from one id to several and back, and is gone with its last id', (t) => {
  const map = new PostingMap();
  map.add('k', 'a');
  map.add('k', 'a');
  t.deepEqual(ids(map, 'k'), ['a'], 'the same id twice is posted once');
  map.add('k', 'b');
  map.add('k', 'c');
  t.deepEqual(ids(map, 'k'), ['a', 'b', 'c']);
  map.remove('k', 'b');
  map.remove('k', 'a');
  t.deepEqual(ids(map, 'k'), ['c'], 'down to one id');
  map.add('k', 'd');
  t.deepEqual(ids(map, 'k'), ['c', 'd'], 'and up again from one');
  map.remove('k', 'c');
  map.remove('k', 'd');
  t.is(map.get('k'), undefined);
  t.is(map.size, 0);
});

test('removing an id a key does not hold changes nothing', (t) => {
  const map = new PostingMap();
  map.add('k', 'a');
  map.remove('k', 'b');
  map.remove('other', 'a');
  t.deepEqual(ids(map, 'k'), ['a']);
  map.add('k', 'b');
  map.remove('k', 'z');
  t.deepEqual(ids(map, 'k'), ['a', 'b']);
  t.is(map.size, 1);
});

test('what a lookup returns is not the posting itself', (t) => {
  const map = new PostingMap();
  map.add('k', 'a');
  const first = map.get('k') as Set<string>;
  first.add('intruder');
  t.deepEqual(ids(map, 'k'), ['a'], 'a lone id is answered with a set of its own');
});
