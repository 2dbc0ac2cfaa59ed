export default function sortedArray(a: string[]): string[] {
  const b = [...a]
  b.sort()
  return b
}
